#!/usr/bin/env node
import { createRequire as __WEBPACK_EXTERNAL_createRequire } from "module";
/******/ var __webpack_modules__ = ({

/***/ 181:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("buffer");

/***/ }),

/***/ 932:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("process");

/***/ }),

/***/ 5140:
/***/ ((__webpack_module__, __unused_webpack___webpack_exports__, __nccwpck_require__) => {

__nccwpck_require__.a(__webpack_module__, async (__webpack_handle_async_dependencies__, __webpack_async_result__) => { try {
/* harmony import */ var _command_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(6350);

process.exitCode = await (0,_command_js__WEBPACK_IMPORTED_MODULE_0__/* .gateCommand */ .B)(process.argv.slice(2), process.env, process.cwd(), { out: console.log, err: console.error });

__webpack_async_result__();
} catch(e) { __webpack_async_result__(e); } }, 1);

/***/ }),

/***/ 6350:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  B: () => (/* binding */ gateCommand)
});

;// CONCATENATED MODULE: external "node:fs"
const external_node_fs_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs");
;// CONCATENATED MODULE: external "node:path"
const external_node_path_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:path");
;// CONCATENATED MODULE: external "node:util"
const external_node_util_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:util");
;// CONCATENATED MODULE: ./build/actions/gate/errors.js
/** Exit codes of `gate ci` (spec: EXIT_OK, EXIT_BLOCKED, EXIT_ERROR). */
const EXIT_OK = 0;
const EXIT_BLOCKED = 1;
const EXIT_ERROR = 2;
/**
 * A setup or tool problem: nothing could be decided, so the gate answers 2 ("no answer"), never
 * a pass. The message says what to fix.
 */
class errors_GateError extends Error {
    name = 'GateError';
}

;// CONCATENATED MODULE: ./build/actions/gate/severity.js
const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'];
const FAIL_ON = ['critical', 'high', 'medium', 'low', 'any', 'none'];
const RANK = { critical: 4, high: 3, medium: 2, low: 1, info: 0 };
/** The rule a result points at: by index (driver or extension), else by id. */
function ruleOf(run, result) {
    const component = result.rule?.toolComponent?.index;
    const rules = component === undefined ? run.tool.driver.rules : run.tool.extensions?.[component]?.rules;
    const index = result.rule?.index ?? result.ruleIndex;
    if (typeof index === 'number' && rules?.[index])
        return rules[index];
    const id = result.ruleId ?? result.rule?.id;
    return id === undefined ? undefined : rules?.find((r) => r.id === id) ?? run.tool.driver.rules?.find((r) => r.id === id);
}
function band(score) {
    const value = typeof score === 'string' ? Number(score) : typeof score === 'number' ? score : NaN;
    if (!Number.isFinite(value) || value <= 0)
        return undefined;
    if (value >= 9)
        return 'critical';
    if (value >= 7)
        return 'high';
    if (value >= 4)
        return 'medium';
    return 'low';
}
/**
 * The `security-severity` band when present (≥9 critical, ≥7 high, ≥4 medium, >0 low), otherwise
 * the level (error → high, warning → medium, note → low, none → info), the level being the
 * result's, then the rule's default, then `warning`.
 */
function severityOf(run, result) {
    const rule = ruleOf(run, result);
    const scored = band(rule?.properties?.['security-severity']) ?? band(result.properties?.['security-severity']);
    if (scored)
        return scored;
    const level = result.level ?? rule?.defaultConfiguration?.level ?? 'warning';
    return level === 'error' ? 'high' : level === 'warning' ? 'medium' : level === 'note' ? 'low' : 'info';
}
function blocks(severity, failOn) {
    if (failOn === 'none')
        return false;
    if (failOn === 'any')
        return true;
    return RANK[severity] >= RANK[failOn];
}

;// CONCATENATED MODULE: ./build/actions/gate/args.js





const DEFAULT_SARIF = 'megalinter-reports/megalinter-report.sarif';
const USAGE = `Usage: gate ci [options]

Classifies SARIF findings as net-new (introduced by the pull request, since the merge-base of
base and head) or pre-existing, and fails only on net-new ones.

Options:
  --sarif <path>          SARIF report (default ${DEFAULT_SARIF})
  --base <sha|ref>        base of the pull request (default: the pull-request event's base sha)
  --head <sha|ref>        head of the pull request (default HEAD)
  --repo <path>           repository working tree (default: the current directory)
  --fail-on <severity>    critical | high | medium | low | any | none (default high)
  --strict                skipped linters and failed tool runs are errors (exit 2)
  --filtered-out <path>   write the net-new-only SARIF here
  --counts-json <path>    write the counts document here
  --linters <keys>        enabled MegaLinter linter keys, comma-separated
                          (default: ENABLE_LINTERS, else .mega-linter.yml)
  --help                  this text

Exit codes: 0 no blocking net-new findings; 1 blocked; 2 no answer (setup or tool error,
for example a shallow clone: check out with fetch-depth: 0).`;
/** The pull-request event's base commit, when the workflow runs on one. */
function eventBase(env) {
    if (!env.GITHUB_EVENT_PATH)
        return undefined;
    try {
        const event = JSON.parse((0,external_node_fs_namespaceObject.readFileSync)(env.GITHUB_EVENT_PATH, 'utf8'));
        const sha = event.pull_request?.base?.sha;
        return typeof sha === 'string' && sha ? sha : undefined;
    }
    catch {
        return undefined;
    }
}
/** Parses `gate <command> [options]`; a usage problem is a `GateError` (exit 2). */
function parseCommand(argv, env, cwd) {
    let parsed;
    try {
        parsed = (0,external_node_util_namespaceObject.parseArgs)({
            args: [...argv],
            allowPositionals: true,
            strict: true,
            options: {
                sarif: { type: 'string' },
                base: { type: 'string' },
                head: { type: 'string' },
                repo: { type: 'string' },
                'fail-on': { type: 'string' },
                strict: { type: 'boolean' },
                'filtered-out': { type: 'string' },
                'counts-json': { type: 'string' },
                linters: { type: 'string' },
                help: { type: 'boolean', short: 'h' },
            },
        });
    }
    catch (err) {
        throw new errors_GateError(`${err.message}\n\n${USAGE}`);
    }
    const { values, positionals } = parsed;
    if (values.help || positionals.length === 0)
        return { kind: 'help' };
    if (positionals[0] !== 'ci' || positionals.length > 1)
        throw new errors_GateError(`unknown command "${positionals.join(' ')}"\n\n${USAGE}`);
    const failOn = (values['fail-on'] ?? 'high').toLowerCase();
    if (!FAIL_ON.includes(failOn))
        throw new errors_GateError(`--fail-on must be one of ${FAIL_ON.join(', ')}`);
    const base = values.base ?? eventBase(env);
    if (!base)
        throw new errors_GateError('no --base given and no pull-request event to read it from');
    return {
        kind: 'ci',
        options: {
            sarif: (0,external_node_path_namespaceObject.resolve)(cwd, values.sarif ?? DEFAULT_SARIF),
            base,
            head: values.head ?? 'HEAD',
            repo: (0,external_node_path_namespaceObject.resolve)(cwd, values.repo ?? '.'),
            failOn: failOn,
            strict: values.strict ?? false,
            ...(values['filtered-out'] ? { filteredOut: (0,external_node_path_namespaceObject.resolve)(cwd, values['filtered-out']) } : {}),
            ...(values['counts-json'] ? { countsJson: (0,external_node_path_namespaceObject.resolve)(cwd, values['counts-json']) } : {}),
            ...(values.linters !== undefined ? { linters: values.linters } : {}),
        },
    };
}

;// CONCATENATED MODULE: external "node:url"
const external_node_url_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:url");
;// CONCATENATED MODULE: ./build/actions/gate/locations.js


/** Where MegaLinter mounts the workspace in its container. */
const CONTAINER_ROOTS = ['/tmp/lint/', '/github/workspace/'];
/** A `uriBaseId` resolved through `originalUriBaseIds` (chains allowed, loops refused). */
function baseOf(run, id, seen = new Set()) {
    if (!id || seen.has(id))
        return undefined;
    seen.add(id);
    const entry = run.originalUriBaseIds?.[id];
    if (!entry?.uri)
        return undefined;
    const parent = baseOf(run, entry.uriBaseId, seen);
    return parent ? joinUri(parent, entry.uri) : entry.uri;
}
function joinUri(base, uri) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(uri) || uri.startsWith('/'))
        return uri;
    return `${base.endsWith('/') ? base : `${base}/`}${uri}`;
}
/**
 * A SARIF artifact URI as a path relative to the repository: `file://` URIs, absolute paths under
 * the workspace, `uriBaseId` (`%SRCROOT%` and friends) and MegaLinter's container prefixes all
 * become `src/app.ts`. A path outside the workspace stays absolute (it can never match the diff).
 */
function normaliseUri(run, uri, uriBaseId, workspace) {
    const base = baseOf(run, uriBaseId);
    let value = base && base !== 'file://' && base !== 'file:///' ? joinUri(base, uri) : uri;
    if (/^file:/i.test(value)) {
        try {
            value = (0,external_node_url_namespaceObject.fileURLToPath)(value.replace(/^file:\/\/(?!\/)/i, 'file:///'));
        }
        catch {
            value = decodeURIComponent(value.replace(/^file:\/*/i, '/'));
        }
    }
    else {
        try {
            value = decodeURIComponent(value);
        }
        catch {
            // Keep an undecodable URI as written.
        }
    }
    for (const root of CONTAINER_ROOTS) {
        if (value.startsWith(root))
            return value.slice(root.length);
    }
    if ((0,external_node_path_namespaceObject.isAbsolute)(value)) {
        const inside = (0,external_node_path_namespaceObject.relative)((0,external_node_path_namespaceObject.resolve)(workspace), value);
        if (!inside.startsWith('..') && !(0,external_node_path_namespaceObject.isAbsolute)(inside))
            return inside.split(external_node_path_namespaceObject.sep).join('/');
        return value;
    }
    return value.replace(/^(\.\/)+/, '');
}
/**
 * The first physical location of each result of one run, normalised. A report names the same
 * files over and over, so each distinct URI is normalised once.
 */
class RunLocations {
    run;
    workspace;
    paths = new Map();
    constructor(run, workspace) {
        this.run = run;
        this.workspace = workspace;
    }
    of(result) {
        const physical = result.locations?.[0]?.physicalLocation;
        const uri = physical?.artifactLocation?.uri;
        if (!uri || typeof uri !== 'string')
            return {};
        const baseId = physical.artifactLocation?.uriBaseId;
        const key = baseId === undefined ? uri : `${String(baseId)}\u0000${uri}`;
        let path = this.paths.get(key);
        if (path === undefined) {
            path = normaliseUri(this.run, uri, baseId, this.workspace);
            this.paths.set(key, path);
        }
        const region = physical.region;
        const startLine = typeof region?.startLine === 'number' && region.startLine > 0 ? region.startLine : undefined;
        const endLine = typeof region?.endLine === 'number' && region.endLine >= (startLine ?? 1) ? region.endLine : startLine;
        return { path, startLine, endLine };
    }
}

;// CONCATENATED MODULE: ./build/actions/gate/no-sarif-linters.js
/**
 * MegaLinter linters whose descriptor lacks `can_output_sarif: true`, per major version: they never
 * reach the merged SARIF report, so an enabled one is skipped by name. Read from
 * oxsecurity/megalinter: v8.8.0 (e08c2b05) and v9.6.0 (ef3e84b8) descriptor files; v10.0.0
 * (15e5b455) from the linter table of its README, which is generated from the descriptors and
 * shows the SARIF badge exactly when `can_output_sarif` is true. Disabled and deprecated linters
 * are included (enabling one still yields no SARIF). Regenerate when a new major ships.
 */
const NO_SARIF_LINTERS = {
    8: new Set([
        'ACTION_ACTIONLINT', 'API_SPECTRAL', 'ARM_ARM_TTK', 'BASH_EXEC', 'BASH_SHFMT', 'BICEP_BICEP_LINTER',
        'CLOJURE_CLJSTYLE', 'CLOJURE_CLJ_KONDO', 'COFFEE_COFFEELINT', 'COPYPASTE_JSCPD', 'CPP_CLANG_FORMAT',
        'CPP_CPPCHECK', 'CPP_CPPLINT', 'CSHARP_CSHARPIER', 'CSHARP_DOTNET_FORMAT', 'CSHARP_ROSLYNATOR',
        'CSS_STYLELINT', 'C_CLANG_FORMAT', 'C_CPPCHECK', 'C_CPPLINT', 'DART_DARTANALYZER',
        'EDITORCONFIG_EDITORCONFIG_CHECKER', 'ENV_DOTENV_LINTER', 'GHERKIN_GHERKIN_LINT',
        'GRAPHQL_GRAPHQL_SCHEMA_LINTER', 'HTML_DJLINT', 'HTML_HTMLHINT', 'JAVASCRIPT_PRETTIER',
        'JAVASCRIPT_STANDARD', 'JSON_JSONLINT', 'JSON_NPM_PACKAGE_JSON_LINT', 'JSON_PRETTIER', 'JSON_V8R',
        'KUBERNETES_HELM', 'KUBERNETES_KUBECONFORM', 'LATEX_CHKTEX', 'LUA_LUACHECK', 'LUA_SELENE', 'LUA_STYLUA',
        'MAKEFILE_CHECKMAKE', 'MARKDOWN_MARKDOWNLINT', 'MARKDOWN_MARKDOWN_LINK_CHECK',
        'MARKDOWN_MARKDOWN_TABLE_FORMATTER', 'MARKDOWN_REMARK_LINT', 'PERL_PERLCRITIC', 'PHP_PHPCSFIXER',
        'POWERSHELL_POWERSHELL', 'POWERSHELL_POWERSHELL_FORMATTER', 'PROTOBUF_PROTOLINT', 'PUPPET_PUPPET_LINT',
        'PYTHON_BLACK', 'PYTHON_FLAKE8', 'PYTHON_ISORT', 'PYTHON_MYPY', 'PYTHON_PYLINT', 'PYTHON_PYRIGHT',
        'PYTHON_RUFF_FORMAT', 'RAKU_RAKU', 'REPOSITORY_GIT_DIFF', 'REPOSITORY_LS_LINT', 'REPOSITORY_TRUFFLEHOG',
        'RST_RSTCHECK', 'RST_RSTFMT', 'RST_RST_LINT', 'RUBY_RUBOCOP', 'RUST_CLIPPY', 'R_LINTR',
        'SALESFORCE_LIGHTNING_FLOW_SCANNER', 'SALESFORCE_SFDX_SCANNER_APEX', 'SALESFORCE_SFDX_SCANNER_AURA',
        'SALESFORCE_SFDX_SCANNER_LWC', 'SCALA_SCALAFIX', 'SNAKEMAKE_LINT', 'SNAKEMAKE_SNAKEFMT', 'SPELL_CSPELL',
        'SPELL_LYCHEE', 'SPELL_PROSELINT', 'SPELL_VALE', 'SQL_SQLFLUFF', 'SQL_TSQLLINT', 'SWIFT_SWIFTLINT',
        'TEKTON_TEKTON_LINT', 'TERRAFORM_TERRAFORM_FMT', 'TERRAFORM_TERRAGRUNT', 'TYPESCRIPT_PRETTIER',
        'TYPESCRIPT_STANDARD', 'VBDOTNET_DOTNET_FORMAT', 'XML_XMLLINT', 'YAML_PRETTIER', 'YAML_V8R',
        'YAML_YAMLLINT',
    ]),
    9: new Set([
        'ACTION_ACTIONLINT', 'ACTION_ZIZMOR', 'ARM_ARM_TTK', 'BASH_EXEC', 'BASH_SHFMT', 'BICEP_BICEP_LINTER',
        'CLOJURE_CLJSTYLE', 'CLOJURE_CLJ_KONDO', 'COFFEE_COFFEELINT', 'COPYPASTE_JSCPD', 'CPP_CLANG_FORMAT',
        'CPP_CPPCHECK', 'CPP_CPPLINT', 'CSHARP_CSHARPIER', 'CSHARP_DOTNET_FORMAT', 'CSHARP_ROSLYNATOR',
        'CSS_STYLELINT', 'C_CLANG_FORMAT', 'C_CPPCHECK', 'C_CPPLINT', 'DART_DARTANALYZER',
        'EDITORCONFIG_EDITORCONFIG_CHECKER', 'ENV_DOTENV_LINTER', 'GHERKIN_GHERKIN_LINT',
        'GRAPHQL_GRAPHQL_SCHEMA_LINTER', 'HTML_DJLINT', 'HTML_HTMLHINT', 'JAVASCRIPT_PRETTIER',
        'JAVASCRIPT_STANDARD', 'JSON_JSONLINT', 'JSON_NPM_PACKAGE_JSON_LINT', 'JSON_PRETTIER', 'JSON_V8R',
        'KUBERNETES_HELM', 'KUBERNETES_KUBECONFORM', 'LATEX_CHKTEX', 'LUA_LUACHECK', 'LUA_SELENE', 'LUA_STYLUA',
        'MAKEFILE_CHECKMAKE', 'MARKDOWN_MARKDOWNLINT', 'MARKDOWN_MARKDOWN_TABLE_FORMATTER',
        'MARKDOWN_REMARK_LINT', 'PERL_PERLCRITIC', 'PHP_PHPCSFIXER', 'POWERSHELL_POWERSHELL',
        'POWERSHELL_POWERSHELL_FORMATTER', 'PROTOBUF_PROTOLINT', 'PUPPET_PUPPET_LINT', 'PYTHON_BLACK',
        'PYTHON_FLAKE8', 'PYTHON_ISORT', 'PYTHON_MYPY', 'PYTHON_NBQA_MYPY', 'PYTHON_PYLINT', 'PYTHON_PYRIGHT',
        'PYTHON_RUFF_FORMAT', 'RAKU_RAKU', 'REPOSITORY_GIT_DIFF', 'REPOSITORY_LS_LINT', 'REPOSITORY_OSV_SCANNER',
        'REPOSITORY_TRUFFLEHOG', 'RST_RSTCHECK', 'RST_RSTFMT', 'RST_RST_LINT', 'RUBY_RUBOCOP', 'RUST_CLIPPY',
        'R_LINTR', 'SALESFORCE_CODE_ANALYZER_APEX', 'SALESFORCE_CODE_ANALYZER_AURA',
        'SALESFORCE_CODE_ANALYZER_LWC', 'SALESFORCE_LIGHTNING_FLOW_SCANNER', 'SALESFORCE_SFDX_SCANNER_APEX',
        'SALESFORCE_SFDX_SCANNER_AURA', 'SALESFORCE_SFDX_SCANNER_LWC', 'SCALA_SCALAFIX', 'SNAKEMAKE_LINT',
        'SNAKEMAKE_SNAKEFMT', 'SPELL_CODESPELL', 'SPELL_CSPELL', 'SPELL_LYCHEE', 'SPELL_PROSELINT', 'SPELL_VALE',
        'SQL_SQLFLUFF', 'SQL_TSQLLINT', 'SWIFT_SWIFTLINT', 'TEKTON_TEKTON_LINT', 'TERRAFORM_TERRAFORM_FMT',
        'TERRAFORM_TERRAGRUNT', 'TYPESCRIPT_PRETTIER', 'TYPESCRIPT_STANDARD', 'VBDOTNET_DOTNET_FORMAT',
        'XML_XMLLINT', 'YAML_PRETTIER', 'YAML_V8R', 'YAML_YAMLLINT',
    ]),
    10: new Set([
        'ACTION_ACTIONLINT', 'ACTION_ZIZMOR', 'ARM_ARM_TTK', 'BASH_EXEC', 'BASH_SHFMT', 'BICEP_BICEP_LINTER',
        'CLOJURE_CLJSTYLE', 'CLOJURE_CLJ_KONDO', 'COFFEE_COFFEELINT', 'COPYPASTE_JSCPD', 'CPP_CLANG_FORMAT',
        'CPP_CPPCHECK', 'CPP_CPPLINT', 'CSHARP_CSHARPIER', 'CSHARP_DOTNET_FORMAT', 'CSHARP_ROSLYNATOR',
        'CSS_STYLELINT', 'C_CLANG_FORMAT', 'C_CPPCHECK', 'C_CPPLINT', 'DART_DARTANALYZER',
        'EDITORCONFIG_EDITORCONFIG_CHECKER', 'ENV_DOTENV_LINTER', 'GHERKIN_GHERKIN_LINT',
        'GRAPHQL_GRAPHQL_SCHEMA_LINTER', 'HTML_DJLINT', 'HTML_HTMLHINT', 'JAVASCRIPT_PRETTIER',
        'JAVASCRIPT_STANDARD', 'JSON_JSONLINT', 'JSON_NPM_PACKAGE_JSON_LINT', 'JSON_PRETTIER', 'JSON_V8R',
        'KUBERNETES_HELM', 'KUBERNETES_KUBECONFORM', 'LATEX_CHKTEX', 'LUA_LUACHECK', 'LUA_STYLUA',
        'MARKDOWN_MARKDOWNLINT', 'MARKDOWN_MARKDOWN_TABLE_FORMATTER', 'PERL_PERLCRITIC', 'PHP_PHPCSFIXER',
        'POWERSHELL_POWERSHELL', 'POWERSHELL_POWERSHELL_FORMATTER', 'PROTOBUF_PROTOLINT', 'PYTHON_BLACK',
        'PYTHON_FLAKE8', 'PYTHON_ISORT', 'PYTHON_MYPY', 'PYTHON_NBQA_MYPY', 'PYTHON_PYLINT', 'PYTHON_PYRIGHT',
        'PYTHON_RUFF_FORMAT', 'RAKU_RAKU', 'REPOSITORY_GIT_DIFF', 'REPOSITORY_LS_LINT', 'REPOSITORY_OSV_SCANNER',
        'REPOSITORY_TRUFFLEHOG', 'RST_RSTCHECK', 'RST_RSTFMT', 'RST_RST_LINT', 'RUBY_RUBOCOP', 'RUST_CLIPPY',
        'R_LINTR', 'SALESFORCE_CODE_ANALYZER_APEX', 'SALESFORCE_CODE_ANALYZER_AURA',
        'SALESFORCE_CODE_ANALYZER_FLOW', 'SALESFORCE_CODE_ANALYZER_LWC', 'SCALA_SCALAFIX', 'SNAKEMAKE_LINT',
        'SNAKEMAKE_SNAKEFMT', 'SPELL_CODESPELL', 'SPELL_CSPELL', 'SPELL_LYCHEE', 'SPELL_PROSELINT', 'SPELL_VALE',
        'SQL_SQLFLUFF', 'SWIFT_SWIFTLINT', 'TEKTON_TEKTON_LINT', 'TERRAFORM_TERRAFORM_FMT',
        'TERRAFORM_TERRAGRUNT', 'TYPESCRIPT_PRETTIER', 'TYPESCRIPT_STANDARD', 'VBDOTNET_DOTNET_FORMAT',
        'XML_XMLLINT', 'YAML_PRETTIER', 'YAML_V8R', 'YAML_YAMLLINT',
    ]),
};

;// CONCATENATED MODULE: ./build/actions/gate/megalinter.js



/**
 * The MegaLinter linter key of a run: `properties.megalinter.linterKey`, else the driver-name
 * suffix `(MegaLinter KEY)` (which some versions write twice). SBOM runs carry no key: not linters.
 */
function linterKeyOf(run) {
    const megalinter = run.properties?.megalinter;
    if (typeof megalinter?.linterKey === 'string' && megalinter.linterKey)
        return megalinter.linterKey;
    const match = /\(MegaLinter ([A-Z0-9_]+)\)/.exec(run.tool.driver.name ?? '');
    return match?.[1];
}
/** The MegaLinter major version that wrote the report (its image's build version or a docs URL). */
function megalinterMajor(log) {
    const image = log.properties?.dockerImage?.buildVersion;
    const doc = log.properties?.docUrl;
    for (const text of [image, doc]) {
        const match = typeof text === 'string' ? /v?(\d+)\.\d+\.\d+/.exec(text) : null;
        if (match)
            return Number(match[1]);
    }
    return undefined;
}
function keysFrom(value) {
    const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
    return list.map((k) => String(k).trim()).filter((k) => /^[A-Z0-9_]+$/.test(k));
}
/**
 * The enabled linters: `--linters`, else MegaLinter's `ENABLE_LINTERS` setting, else the
 * `ENABLE_LINTERS` of `.mega-linter.yml` in the repository. Undefined when none says. The YAML
 * parser is loaded only when that file is read: it is most of the gate's code, and most runs
 * never need it.
 */
async function enabledLinters(option, env, repo) {
    if (option !== undefined)
        return keysFrom(option);
    if (env.ENABLE_LINTERS?.trim())
        return keysFrom(env.ENABLE_LINTERS);
    for (const name of ['.mega-linter.yml', '.mega-linter.yaml']) {
        const file = (0,external_node_path_namespaceObject.join)(repo, name);
        if (!(0,external_node_fs_namespaceObject.existsSync)(file))
            continue;
        const { parse } = await __nccwpck_require__.e(/* import() | yaml */ 602).then(__nccwpck_require__.t.bind(__nccwpck_require__, 8815, 19));
        const config = parse((0,external_node_fs_namespaceObject.readFileSync)(file, 'utf8'));
        if (config?.ENABLE_LINTERS !== undefined)
            return keysFrom(config.ENABLE_LINTERS);
    }
    return undefined;
}
/**
 * Enabled linters that cannot reach the merged SARIF (their descriptor lacks `can_output_sarif`):
 * they are skipped by name, with the reason, and yield no findings.
 */
function skippedLinters(enabled, major) {
    if (!enabled)
        return [];
    // An older report uses the oldest table, an unknown or newer one the newest.
    const versions = Object.keys(NO_SARIF_LINTERS).map(Number).sort((a, b) => a - b);
    const version = major === undefined ? versions.at(-1) : major < versions[0] ? versions[0] : (versions.filter((v) => v <= major).at(-1) ?? versions.at(-1));
    const table = NO_SARIF_LINTERS[version];
    return [...new Set(enabled)]
        .filter((key) => table.has(key))
        .sort()
        .map((linter) => ({ linter, reason: `MegaLinter v${version} cannot write SARIF for ${linter} (no can_output_sarif in its descriptor)` }));
}

;// CONCATENATED MODULE: ./build/actions/gate/secrets.js


/** Secret scanners whose findings may point at SOPS-encrypted values. */
const SECRET_SCANNERS = /gitleaks|secretlint|trufflehog|detect-secrets|ggshield|kics-secrets|devskim-secrets|REPOSITORY_GITLEAKS|REPOSITORY_SECRETLINT|REPOSITORY_TRUFFLEHOG/i;
const SOPS_VALUE = /ENC\[AES256_GCM,/;
function isSecretScanner(run, linterKey) {
    return SECRET_SCANNERS.test(run.tool.driver.name ?? '') || SECRET_SCANNERS.test(linterKey ?? '');
}
/**
 * Whether the finding's lines in the working-tree file hold a SOPS ciphertext. The SARIF
 * snippet is never trusted (scanners redact it); the file is read instead. Files are read once.
 */
class SopsDetector {
    workspace;
    files = new Map();
    constructor(workspace) {
        this.workspace = workspace;
    }
    isEncrypted(location) {
        if (!location.path || location.startLine === undefined)
            return false;
        const lines = this.lines(location.path);
        if (!lines)
            return false;
        // The finding's own line only: a plaintext secret on a neighbouring line still gates.
        return SOPS_VALUE.test(lines[location.startLine - 1] ?? '');
    }
    lines(path) {
        let lines = this.files.get(path);
        if (lines === undefined) {
            try {
                lines = path.startsWith('/') || path.split('/').includes('..') ? null : (0,external_node_fs_namespaceObject.readFileSync)((0,external_node_path_namespaceObject.join)(this.workspace, path), 'utf8').split('\n');
            }
            catch {
                lines = null;
            }
            this.files.set(path, lines);
        }
        return lines;
    }
}

;// CONCATENATED MODULE: ./build/actions/gate/classify.js





/** Suppressed unless every suppression was rejected or is still under review; `[]` is no suppression. */
function isSuppressed(result) {
    const suppressions = result.suppressions ?? [];
    return suppressions.some((s) => s.status !== 'rejected' && s.status !== 'underReview');
}
/** Net-new: the file is new in the pull request, or the result's start line is an added line. */
function isNetNew(diff, location) {
    if (!location.path)
        return false;
    const added = diff.files.get(location.path);
    if (added === undefined)
        return false;
    if (added === 'all')
        return true;
    return location.startLine !== undefined && added.has(location.startLine);
}
/**
 * The first line of each finding's message, read again from the report. Empty when a result has
 * none, and for the rest when the report can no longer be read (the answer is already made;
 * messages only decorate it).
 */
function messagesOf(report, findings) {
    const messages = [];
    try {
        for (const result of report.readAgain(findings.map((f) => f.source))) {
            const text = result.message?.text;
            messages.push(typeof text === 'string' ? text.split('\n', 1)[0] : '');
        }
    }
    catch (err) {
        if (!(err instanceof GateError))
            throw err;
    }
    return messages;
}
/**
 * Sorts every result of the report into exactly one bucket. Results are read one at a time and
 * only the net-new ones are kept.
 */
function classify(report, diff, options) {
    const netNew = [];
    let total = 0;
    let preExisting = 0;
    let suppressed = 0;
    let sopsIgnored = 0;
    let noLocation = 0;
    let ignoredRuns = 0;
    report.log.runs.forEach((run, runIndex) => {
        const linter = linterKeyOf(run);
        if (linter && options.skippedLinters.has(linter)) {
            for (const _ of report.results(runIndex))
                ignoredRuns++;
            return;
        }
        const secrets = isSecretScanner(run, linter);
        const tool = linter ?? run.tool.driver.name ?? 'unknown tool';
        const locations = new RunLocations(run, options.workspace);
        let index = -1;
        for (const { result, source } of report.results(runIndex)) {
            index++;
            total++;
            if (isSuppressed(result)) {
                suppressed++;
                continue;
            }
            const location = locations.of(result);
            if (!location.path) {
                noLocation++;
                continue;
            }
            if (secrets && options.sops.isEncrypted(location)) {
                sopsIgnored++;
                continue;
            }
            if (!isNetNew(diff, location)) {
                preExisting++;
                continue;
            }
            const severity = severityOf(run, result);
            const ruleId = result.ruleId ?? result.rule?.id;
            netNew.push({
                runIndex,
                index,
                source,
                tool,
                ruleId: typeof ruleId === 'string' && ruleId ? ruleId : undefined,
                path: location.path,
                startLine: location.startLine,
                severity,
                blocking: blocks(severity, options.failOn),
            });
        }
    });
    return { total, netNew, preExisting, suppressed, sopsIgnored, noLocation, ignoredRuns };
}

;// CONCATENATED MODULE: external "node:child_process"
const external_node_child_process_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:child_process");
;// CONCATENATED MODULE: external "node:fs/promises"
const promises_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs/promises");
;// CONCATENATED MODULE: external "node:os"
const external_node_os_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:os");
;// CONCATENATED MODULE: ./build/actions/gate/git-diff.js






const RENAME_LIMIT = 20_000;
const FETCH_DEPTH = 'check out with full history (actions/checkout with fetch-depth: 0)';
async function git(repo, args) {
    return new Promise((resolve, reject) => {
        const child = (0,external_node_child_process_namespaceObject.spawn)('git', ['-C', repo, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += d.toString()));
        child.stderr.on('data', (d) => (stderr += d.toString()));
        child.on('error', (err) => reject(new errors_GateError(`cannot run git: ${err.message}`)));
        child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
    });
}
async function commitOf(repo, ref, what) {
    const { code, stdout } = await git(repo, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
    if (code !== 0)
        throw new errors_GateError(`the ${what} ${ref} is not reachable in this clone; ${FETCH_DEPTH}`);
    return stdout.trim();
}
/** Git's C-style quoting of unusual paths ("a\tb", octal escapes for non-ASCII bytes). */
function unquotePath(raw) {
    if (!raw.startsWith('"'))
        return raw;
    const bytes = [];
    const body = raw.slice(1, -1);
    const simple = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };
    for (let i = 0; i < body.length; i++) {
        const ch = body[i];
        if (ch !== '\\') {
            bytes.push(...Buffer.from(ch, 'utf8'));
            continue;
        }
        const next = body[i + 1];
        if (/[0-7]/.test(next)) {
            bytes.push(parseInt(body.slice(i + 1, i + 4), 8));
            i += 3;
        }
        else {
            bytes.push(simple[next] ?? next.charCodeAt(0));
            i += 1;
        }
    }
    return Buffer.from(bytes).toString('utf8');
}
/**
 * The pull request's changes: `git diff -M --unified=0 <merge-base> <head>`. Refuses (exit 2) a
 * shallow clone, an unreachable base or head, and unrelated histories: it never guesses what is
 * new. `onRunning` is called once `git diff` works in its own process (or the checks have failed),
 * so the caller can do its own work meanwhile.
 */
async function pullRequestDiff(repo, base, head, onRunning = () => { }) {
    try {
        // The three checks run together; their failures are reported in this order.
        const [shallow, baseCommit, headCommit] = await Promise.all([
            git(repo, ['rev-parse', '--is-shallow-repository']),
            commitOf(repo, base, 'base').catch((err) => err),
            commitOf(repo, head, 'head').catch((err) => err),
        ]);
        if (shallow.code !== 0)
            throw new errors_GateError(`${repo} is not a git repository: ${shallow.stderr.trim()}`);
        if (shallow.stdout.trim() === 'true') {
            throw new errors_GateError(`this is a shallow clone, so the merge-base cannot be found; ${FETCH_DEPTH}`);
        }
        if (typeof baseCommit !== 'string')
            throw baseCommit;
        if (typeof headCommit !== 'string')
            throw headCommit;
        const mergeBase = await git(repo, ['merge-base', baseCommit, headCommit]);
        if (mergeBase.code !== 0 || !mergeBase.stdout.trim()) {
            throw new errors_GateError(`${base} and ${head} have no merge-base in this clone; ${FETCH_DEPTH}`);
        }
        const files = await addedLines(repo, mergeBase.stdout.trim(), headCommit, onRunning);
        return { mergeBase: mergeBase.stdout.trim(), head: headCommit, files };
    }
    finally {
        onRunning();
    }
}
/**
 * Runs `git diff` into a temporary file rather than a pipe: a pipe would stop git as soon as it
 * filled while this process is busy reading the report, and the two are meant to overlap.
 */
async function addedLines(repo, from, to, onRunning) {
    const dir = await (0,promises_namespaceObject.mkdtemp)((0,external_node_path_namespaceObject.join)((0,external_node_os_namespaceObject.tmpdir)(), 'gatehouse-gate-diff-'));
    try {
        const output = (0,external_node_path_namespaceObject.join)(dir, 'diff');
        const child = (0,external_node_child_process_namespaceObject.spawn)('git', 
        // A rename limit far above git's default of 1000: past the limit git silently treats renames
        // as new files, which would make every finding in them net-new.
        ['-C', repo, '-c', 'core.quotePath=false', 'diff', '--no-color', '--no-ext-diff', '--find-renames', `-l${RENAME_LIMIT}`, '--unified=0', '--diff-filter=ACMRT', `--output=${output}`, from, to], { stdio: ['ignore', 'ignore', 'pipe'] });
        let stderr = '';
        child.stderr.on('data', (d) => (stderr += d.toString()));
        const exited = new Promise((resolve, reject) => {
            child.on('error', (err) => reject(new errors_GateError(`cannot run git: ${err.message}`)));
            child.on('close', (c) => resolve(c ?? 1));
        });
        onRunning();
        const code = await exited;
        if (code !== 0)
            throw new errors_GateError(`git diff failed: ${stderr.trim()}`);
        if (/rename detection was skipped/i.test(stderr)) {
            throw new errors_GateError(`the pull request renames more files than rename detection can pair (limit ${RENAME_LIMIT}); renamed files cannot be told from new ones`);
        }
        return parseDiffFile(output);
    }
    finally {
        await (0,promises_namespaceObject.rm)(dir, { recursive: true, force: true });
    }
}
function parseDiffFile(path) {
    const parser = new DiffParser();
    const fd = (0,external_node_fs_namespaceObject.openSync)(path, 'r');
    try {
        const chunk = Buffer.allocUnsafe(1 << 16);
        for (let read; (read = (0,external_node_fs_namespaceObject.readSync)(fd, chunk, 0, chunk.length, null)) > 0;)
            parser.push(chunk.subarray(0, read));
    }
    finally {
        (0,external_node_fs_namespaceObject.closeSync)(fd);
    }
    parser.end();
    return parser.files;
}
const NEWLINE = 0x0a;
const HUNK = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/;
function startsWith(buf, start, end, prefix) {
    if (end - start < prefix.length)
        return false;
    for (let i = 0; i < prefix.length; i++)
        if (buf[start + i] !== prefix.charCodeAt(i))
            return false;
    return true;
}
/**
 * `git diff --unified=0` output, read as bytes: only file headers and hunk headers are decoded.
 * The added lines' text (most of the output) is stepped over without becoming strings.
 */
class DiffParser {
    files = new Map();
    current;
    newFile = false;
    /** Between "diff --git" and the first hunk: header lines. After it, "+++ x" is an added line. */
    inHeader = false;
    /** The start of a line that a chunk cut, when it may matter. */
    partial;
    /** A cut line that is hunk content: dropped up to its end. */
    skipping = false;
    push(chunk) {
        let start = 0;
        if (this.skipping || this.partial) {
            const newline = chunk.indexOf(NEWLINE);
            if (newline < 0) {
                if (this.partial)
                    this.partial = Buffer.concat([this.partial, chunk]);
                return;
            }
            if (this.partial) {
                const line = Buffer.concat([this.partial, chunk.subarray(0, newline)]);
                this.line(line, 0, line.length);
            }
            this.partial = undefined;
            this.skipping = false;
            start = newline + 1;
        }
        for (;;) {
            const newline = chunk.indexOf(NEWLINE, start);
            if (newline < 0)
                break;
            this.line(chunk, start, newline);
            start = newline + 1;
        }
        if (start < chunk.length) {
            if (this.isContent(chunk[start]))
                this.skipping = true;
            else
                this.partial = Buffer.from(chunk.subarray(start));
        }
    }
    end() {
        if (this.partial)
            this.line(this.partial, 0, this.partial.length);
        this.partial = undefined;
    }
    /** A hunk's added or removed line, or git's "\ No newline" marker. */
    isContent(first) {
        return !this.inHeader && first !== 0x40 /* @ */ && first !== 0x64 /* d */;
    }
    line(buf, start, end) {
        if (startsWith(buf, start, end, 'diff --git ')) {
            this.current = undefined;
            this.newFile = false;
            this.inHeader = true;
        }
        else if (this.isContent(buf[start])) {
            return;
        }
        else if (startsWith(buf, start, end, 'new file mode')) {
            if (this.inHeader)
                this.newFile = true;
        }
        else if (startsWith(buf, start, end, '+++ ')) {
            if (!this.inHeader)
                return;
            // git ends the name with a tab when it holds a space; a real tab in a name is quoted.
            const target = buf.toString('utf8', start + 4, buf[end - 1] === 0x09 ? end - 1 : end);
            if (target === '/dev/null')
                return;
            const path = unquotePath(target).replace(/^b\//, '');
            if (this.newFile) {
                this.files.set(path, 'all');
            }
            else {
                this.current = new Set();
                this.files.set(path, this.current);
            }
        }
        else if (startsWith(buf, start, end, '@@')) {
            this.inHeader = false;
            if (!this.current)
                return;
            const match = HUNK.exec(buf.toString('latin1', start, Math.min(end, start + 100)));
            if (!match)
                return;
            const first = Number(match[1]);
            const count = match[2] === undefined ? 1 : Number(match[2]);
            for (let n = first; n < first + count; n++)
                this.current.add(n);
        }
    }
}

;// CONCATENATED MODULE: ./build/actions/gate/report.js




const COUNTS_SCHEMA_VERSION = 1;
const zeroSeverities = () => Object.fromEntries(SEVERITIES.map((s) => [s, 0]));
function countsOf(classification, extra) {
    const bySeverity = zeroSeverities();
    for (const finding of classification?.netNew ?? [])
        bySeverity[finding.severity]++;
    return {
        schema_version: COUNTS_SCHEMA_VERSION,
        exit_code: extra.exit_code,
        fail_on: extra.fail_on,
        total_count: classification?.total ?? 0,
        net_new_count: classification?.netNew.length ?? 0,
        pre_existing_count: classification?.preExisting ?? 0,
        suppressed_count: classification?.suppressed ?? 0,
        sops_ignored_count: classification?.sopsIgnored ?? 0,
        no_location_count: classification?.noLocation ?? 0,
        blocking_count: classification?.netNew.filter((f) => f.blocking).length ?? 0,
        net_new_by_severity: bySeverity,
        linters_skipped: extra.linters_skipped,
        failed_invocations: extra.failed_invocations,
        ...(extra.base ? { base: extra.base } : {}),
        ...(extra.head ? { head: extra.head } : {}),
        ...(extra.merge_base ? { merge_base: extra.merge_base } : {}),
        ...(extra.error ? { error: extra.error } : {}),
    };
}
const EMPTY_SARIF = { $schema: 'https://json.schemastore.org/sarif-2.1.0.json', version: '2.1.0', runs: [] };
/** An object's JSON without its closing brace, ready for one more member. */
function openObject(value) {
    const json = JSON.stringify(value);
    return json === '{}' ? '{' : `${json.slice(0, -1)},`;
}
/**
 * The net-new-only SARIF: every run kept with its tool and rule metadata (so code scanning can
 * show the rules), its results narrowed to the net-new ones, each read again from the report and
 * marked `baselineState: "new"`. Written piece by piece to a temporary file, then renamed into
 * place: the results are never all in memory, and a reader never sees half a file.
 */
async function writeFilteredSarif(path, report, classification) {
    await (0,promises_namespaceObject.mkdir)((0,external_node_path_namespaceObject.dirname)(path), { recursive: true });
    const temporary = `${path}.${process.pid}.tmp`;
    const fd = (0,external_node_fs_namespaceObject.openSync)(temporary, 'w');
    try {
        const out = new BufferedWriter(fd);
        if (!report || !classification) {
            out.write(JSON.stringify(EMPTY_SARIF));
        }
        else {
            const { runs, ...top } = report.log;
            out.write(`${openObject({ ...top, version: '2.1.0' })}"runs":[`);
            const netNew = classification.netNew;
            const results = report.readAgain(netNew.map((f) => f.source))[Symbol.iterator]();
            try {
                let next = 0;
                runs.forEach((run, runIndex) => {
                    // A `results` that was not an array is still in the run; the filtered one replaces it.
                    const { results: _replaced, ...rest } = run;
                    out.write(`${runIndex > 0 ? ',' : ''}${openObject(rest)}"results":[`);
                    for (let first = true; next < netNew.length && netNew[next].runIndex === runIndex; next++, first = false) {
                        const result = results.next().value;
                        out.write(`${first ? '' : ','}${JSON.stringify({ ...result, baselineState: 'new' })}`);
                    }
                    out.write(']}');
                });
            }
            finally {
                results.return?.();
            }
            out.write(']}');
        }
        out.write('\n');
        out.flush();
    }
    catch (err) {
        (0,external_node_fs_namespaceObject.closeSync)(fd);
        (0,external_node_fs_namespaceObject.rmSync)(temporary, { force: true });
        throw err;
    }
    (0,external_node_fs_namespaceObject.closeSync)(fd);
    (0,external_node_fs_namespaceObject.renameSync)(temporary, path);
}
/** Collects small writes into large ones. */
class BufferedWriter {
    fd;
    parts = [];
    size = 0;
    constructor(fd) {
        this.fd = fd;
    }
    write(text) {
        this.parts.push(text);
        this.size += text.length;
        if (this.size >= 1 << 16)
            this.flush();
    }
    flush() {
        if (this.parts.length === 0)
            return;
        (0,external_node_fs_namespaceObject.writeSync)(this.fd, this.parts.join(''));
        this.parts = [];
        this.size = 0;
    }
}
async function writeJson(path, value) {
    await (0,promises_namespaceObject.mkdir)((0,external_node_path_namespaceObject.dirname)(path), { recursive: true });
    await (0,promises_namespaceObject.writeFile)(path, `${JSON.stringify(value, null, 2)}\n`);
}

;// CONCATENATED MODULE: ./build/actions/gate/json-reader.js

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const isSpace = (c) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
/** Malformed JSON. The message gives a byte offset, never the text: a report may hold secrets. */
class JsonSyntaxError extends Error {
}
/**
 * Reads one JSON text from an open file, front to back, through a small buffer, so a large report
 * is never held whole. The caller walks the structure it cares about (`members`, `elements`) and
 * takes each value with `readValue` (cut out of the bytes and given to the native JSON.parse) or
 * steps over it with `skipValue`. Only the largest single value has to fit in the buffer.
 */
class JsonReader {
    fd;
    buffer;
    /** `buffer` cut to the filled bytes, so native searches never look at stale ones. */
    view;
    /** Next unread byte in `buffer`. */
    pos = 0;
    /** File offset of `buffer[0]`. */
    base;
    done = false;
    limit;
    chunkBytes;
    constructor(fd, options = {}) {
        this.fd = fd;
        this.chunkBytes = options.chunkBytes ?? 1 << 16;
        this.buffer = Buffer.allocUnsafe(this.chunkBytes);
        this.view = this.buffer.subarray(0, 0);
        this.base = options.start ?? 0;
        this.limit = options.end ?? Infinity;
    }
    /** File offset of the next unread byte. */
    get offset() {
        return this.base + this.pos;
    }
    /** Steps over a UTF-8 byte-order mark, which some Windows tools write before the JSON. */
    skipByteOrderMark() {
        while (this.view.length - this.pos < 3 && this.more())
            ;
        if (this.view[this.pos] === 0xef && this.view[this.pos + 1] === 0xbb && this.view[this.pos + 2] === 0xbf)
            this.pos += 3;
    }
    /** The next byte that is not white space, left unread; -1 at the end. */
    peek() {
        for (;;) {
            const view = this.view;
            while (this.pos < view.length) {
                const c = view[this.pos];
                if (!isSpace(c))
                    return c;
                this.pos++;
            }
            if (!this.more())
                return -1;
        }
    }
    /** Fails unless only white space is left. */
    expectEnd() {
        if (this.peek() !== -1)
            throw this.error('unexpected data after the JSON value');
    }
    /** The members of the object that comes next: yields each key; the caller must take its value. */
    *members() {
        this.expect(OPEN_BRACE, "'{'");
        if (this.peek() === CLOSE_BRACE) {
            this.pos++;
            return;
        }
        for (;;) {
            if (this.peek() !== QUOTE)
                throw this.error('expected a property name');
            const key = this.readValue();
            this.expect(COLON, "':'");
            yield key;
            if (this.separator(CLOSE_BRACE, "',' or '}'"))
                return;
        }
    }
    /** The elements of the array that comes next: yields before each; the caller must take it. */
    *elements() {
        this.expect(OPEN_BRACKET, "'['");
        if (this.peek() === CLOSE_BRACKET) {
            this.pos++;
            return;
        }
        for (;;) {
            yield;
            if (this.separator(CLOSE_BRACKET, "',' or ']'"))
                return;
        }
    }
    /** Parses the next value. */
    readValue() {
        const [start, end] = this.nextValue();
        try {
            return JSON.parse(this.view.toString('utf8', start, end));
        }
        catch {
            // JSON.parse's own message quotes the text; only the offset is kept.
            throw this.error('invalid JSON value', start);
        }
    }
    /** Steps over the next value without parsing it (its brackets and strings are still matched). */
    skipValue() {
        this.nextValue();
    }
    /** The bounds of the next value in `view`, after which reading resumes. */
    nextValue() {
        if (this.peek() === -1)
            throw this.error('unexpected end of the JSON text');
        for (;;) {
            const end = this.valueEnd(this.pos);
            if (end >= 0) {
                const start = this.pos;
                this.pos = end;
                return [start, end];
            }
            if (!this.more())
                throw this.error('unexpected end of the JSON text');
        }
    }
    expect(byte, what) {
        if (this.peek() !== byte)
            throw this.error(`expected ${what}`);
        this.pos++;
    }
    /** After a member or element: true at the closing byte, false after a comma. */
    separator(close, what) {
        const c = this.peek();
        this.pos++;
        if (c === COMMA)
            return false;
        if (c === close)
            return true;
        this.pos--;
        throw this.error(`expected ${what}`);
    }
    /** Where the value starting at `from` ends, or -1 when more bytes are needed to know. */
    valueEnd(from) {
        const view = this.view;
        const first = view[from];
        if (first === QUOTE)
            return this.stringEnd(from);
        if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
            // A number or literal runs to the next delimiter; JSON.parse judges the bytes.
            for (let i = from; i < view.length; i++) {
                const c = view[i];
                if (c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || c === COLON || isSpace(c))
                    return i;
            }
            return this.done ? view.length : -1;
        }
        let depth = 0;
        for (let i = from; i < view.length;) {
            const c = view[i];
            if (c === QUOTE) {
                i = this.stringEnd(i);
                if (i < 0)
                    return -1;
                continue;
            }
            if (c === OPEN_BRACE || c === OPEN_BRACKET)
                depth++;
            else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && --depth === 0)
                return i + 1;
            i++;
        }
        return -1;
    }
    /** The offset after the string opening at `from`, found with the native byte search. */
    stringEnd(from) {
        const view = this.view;
        for (let q = from + 1;; q++) {
            q = view.indexOf(QUOTE, q);
            if (q < 0)
                return -1;
            let escapes = 0;
            while (view[q - 1 - escapes] === BACKSLASH)
                escapes++;
            if (escapes % 2 === 0)
                return q + 1;
        }
    }
    /**
     * Reads more bytes, keeping the unread ones. The buffer grows so that its free room is never
     * smaller than what it holds: a value longer than a chunk is rescanned at most about twice.
     */
    more() {
        if (this.done)
            return false;
        const kept = this.view.length - this.pos;
        if (this.pos > 0) {
            this.buffer.copy(this.buffer, 0, this.pos, this.view.length);
            this.base += this.pos;
            this.pos = 0;
        }
        if (this.buffer.length - kept < Math.max(this.chunkBytes, kept)) {
            const larger = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, kept * 2 + this.chunkBytes));
            this.buffer.copy(larger, 0, 0, kept);
            this.buffer = larger;
        }
        const room = Math.min(this.buffer.length - kept, this.limit - (this.base + kept));
        const read = room > 0 ? (0,external_node_fs_namespaceObject.readSync)(this.fd, this.buffer, kept, room, this.base + kept) : 0;
        this.view = this.buffer.subarray(0, kept + read);
        if (read === 0)
            this.done = true;
        return read > 0;
    }
    error(message, at = this.pos) {
        return new JsonSyntaxError(`${message} at byte ${this.base + at}`);
    }
}

;// CONCATENATED MODULE: ./build/actions/gate/sarif.js



/** Sets a parsed member as JSON.parse would: an own property, even one named `__proto__`. */
function setMember(target, key, value) {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
function readError(path, err) {
    if (err instanceof JsonSyntaxError)
        return new errors_GateError(`${path} is not JSON, so not a SARIF report (${err.message})`);
    const code = err.code;
    if (code)
        return new errors_GateError(`cannot read the SARIF report ${path}: ${code}`);
    throw err;
}
function openReport(path) {
    try {
        return (0,external_node_fs_namespaceObject.openSync)(path, 'r');
    }
    catch (err) {
        throw readError(path, err);
    }
}
/** One run, its `results` array stepped over and located instead of parsed. */
function readRun(reader) {
    if (reader.peek() !== 0x7b)
        return { run: reader.readValue() };
    const run = {};
    let results;
    for (const key of reader.members()) {
        if (key === 'results' && reader.peek() === 0x5b) {
            const start = reader.offset;
            for (const _ of reader.elements())
                reader.skipValue();
            results = { start, end: reader.offset };
            // A later duplicate wins, as with JSON.parse.
            delete run.results;
        }
        else {
            if (key === 'results')
                results = undefined;
            setMember(run, key, reader.readValue());
        }
    }
    return { run, ...(results ? { results } : {}) };
}
/**
 * Opens a SARIF file: reads everything but the results, and checks that it is a SARIF log with a
 * `runs` array whose runs each have a `tool.driver`. Anything else is a tool error (exit 2).
 */
function openSarif(path, options = {}) {
    const fd = openReport(path);
    let log;
    const ranges = [];
    try {
        const reader = new JsonReader(fd, options);
        reader.skipByteOrderMark();
        if (reader.peek() === 0x7b) {
            const top = {};
            for (const key of reader.members()) {
                if (key === 'runs' && reader.peek() === 0x5b) {
                    const runs = [];
                    ranges.length = 0;
                    for (const _ of reader.elements()) {
                        const { run, results } = readRun(reader);
                        ranges[runs.length] = results;
                        runs.push(run);
                    }
                    setMember(top, key, runs);
                }
                else {
                    setMember(top, key, reader.readValue());
                }
            }
            log = top;
        }
        else {
            log = reader.readValue();
        }
        reader.expectEnd();
    }
    catch (err) {
        throw readError(path, err);
    }
    finally {
        (0,external_node_fs_namespaceObject.closeSync)(fd);
    }
    const runs = log?.runs;
    if (!log || typeof log !== 'object' || !Array.isArray(runs))
        throw new errors_GateError(`${path} is not a SARIF 2.1.0 report (no "runs" array)`);
    for (const run of runs) {
        const driver = run?.tool?.driver;
        if (!driver || typeof driver !== 'object')
            throw new errors_GateError(`${path} has a run without tool.driver`);
    }
    return {
        log: log,
        results: (runIndex) => readResults(path, ranges[runIndex], options.chunkBytes),
        readAgain: (sources) => readAgain(path, sources),
    };
}
function* readAgain(path, sources) {
    const fd = openReport(path);
    try {
        // One buffer for all: the ranges are known exactly, so no scanning is needed.
        let buffer = Buffer.allocUnsafe(1 << 16);
        for (const { start, end } of sources) {
            if (end - start > buffer.length)
                buffer = Buffer.allocUnsafe(end - start);
            let result;
            try {
                const read = (0,external_node_fs_namespaceObject.readSync)(fd, buffer, 0, end - start, start);
                if (read !== end - start)
                    throw new JsonSyntaxError(`the report ended at byte ${start + read} while it was read again`);
                result = JSON.parse(buffer.toString('utf8', 0, read));
            }
            catch (err) {
                throw readError(path, err instanceof SyntaxError ? new JsonSyntaxError(`invalid JSON value at byte ${start}`) : err);
            }
            yield result;
        }
    }
    finally {
        (0,external_node_fs_namespaceObject.closeSync)(fd);
    }
}
/** A run's results read from their byte range, one parsed at a time. */
function* readResults(path, range, chunkBytes) {
    if (!range)
        return;
    const fd = openReport(path);
    try {
        const reader = new JsonReader(fd, { ...range, ...(chunkBytes ? { chunkBytes } : {}) });
        const elements = reader.elements();
        for (;;) {
            let next;
            try {
                if (elements.next().done) {
                    reader.expectEnd();
                    return;
                }
                reader.peek();
                const start = reader.offset;
                const result = reader.readValue();
                next = { result, source: { start, end: reader.offset } };
            }
            catch (err) {
                throw readError(path, err);
            }
            yield next;
        }
    }
    finally {
        (0,external_node_fs_namespaceObject.closeSync)(fd);
    }
}

;// CONCATENATED MODULE: ./build/actions/gate/ci.js







/** Runs whose tool says its invocation failed: a partial scan. */
function failedInvocations(log) {
    return log.runs
        .filter((run) => run.invocations?.some((i) => i.executionSuccessful === false))
        .map((run) => linterKeyOf(run) ?? run.tool.driver.name ?? 'unknown tool');
}
function noAnswer(err) {
    return { exitCode: EXIT_ERROR, error: err.message, message: `no answer: ${err.message}`, classification: undefined };
}
/**
 * `gate ci`: classify the report's results against the pull request's diff, write the filtered
 * SARIF and the counts, then choose the exit code (0 pass, 1 blocked, 2 no answer). The outputs
 * are written in every case, before the exit code is decided.
 */
async function runCi(options, env) {
    let report;
    let diff;
    let classification;
    let skipped = [];
    let failed = [];
    let exitCode;
    let message;
    let error;
    // git computes the diff in its own process while this one reads the report: the checks before
    // it take a few git calls, then `git diff` runs alone. Report problems are still reported first.
    let running;
    const diffRunning = new Promise((resolve) => (running = resolve));
    const pendingDiff = pullRequestDiff(options.repo, options.base, options.head, running);
    pendingDiff.catch(() => { });
    try {
        await diffRunning;
        report = openSarif(options.sarif);
        const { log } = report;
        if (log.runs.length === 0)
            throw new errors_GateError('the SARIF report has no runs: nothing was scanned');
        skipped = skippedLinters(await enabledLinters(options.linters, env, options.repo), megalinterMajor(log));
        failed = failedInvocations(log);
        diff = await pendingDiff;
        classification = classify(report, diff, {
            failOn: options.failOn,
            workspace: options.repo,
            sops: new SopsDetector(options.repo),
            skippedLinters: new Set(skipped.map((s) => s.linter)),
        });
        const toolErrors = options.strict
            ? [...skipped.map((s) => `${s.linter} is enabled but cannot write SARIF`), ...failed.map((f) => `${f} failed to run`)]
            : [];
        const blocking = classification.netNew.filter((f) => f.blocking).length;
        if (toolErrors.length > 0) {
            exitCode = EXIT_ERROR;
            error = `--strict: ${toolErrors.join('; ')}`;
            message = `no answer: ${error}`;
        }
        else if (blocking > 0) {
            exitCode = EXIT_BLOCKED;
            message = `blocked by ${blocking} net-new finding${blocking === 1 ? '' : 's'} at or above ${options.failOn}`;
        }
        else {
            exitCode = EXIT_OK;
            message = `no blocking net-new findings (${classification.netNew.length} net-new, ${classification.preExisting} pre-existing)`;
        }
    }
    catch (err) {
        if (!(err instanceof errors_GateError))
            throw err;
        ({ exitCode, error, message, classification } = noAnswer(err));
    }
    if (options.filteredOut) {
        try {
            await writeFilteredSarif(options.filteredOut, report, classification);
        }
        catch (err) {
            // Net-new results are read again from the report: one that changed since is no answer.
            if (!(err instanceof errors_GateError))
                throw err;
            ({ exitCode, error, message, classification } = noAnswer(err));
            await writeFilteredSarif(options.filteredOut, undefined, undefined);
        }
    }
    const counts = countsOf(classification, {
        exit_code: exitCode,
        fail_on: options.failOn,
        linters_skipped: skipped,
        failed_invocations: failed,
        ...(diff ? { base: options.base, head: diff.head, merge_base: diff.mergeBase } : {}),
        ...(error ? { error } : {}),
    });
    if (options.countsJson)
        await writeJson(options.countsJson, counts);
    return { exitCode, counts, message, ...(classification && report ? { classification, report } : {}), ...(diff ? { diff } : {}) };
}

;// CONCATENATED MODULE: ./build/actions/gate/command.js



/** The `gate` command: returns the exit code; relative paths resolve against `cwd`. */
async function gateCommand(argv, env, cwd, io) {
    let command;
    try {
        command = parseCommand(argv, env, cwd);
    }
    catch (err) {
        if (!(err instanceof errors_GateError))
            throw err;
        io.err(`gate: ${err.message}`);
        return EXIT_ERROR;
    }
    if (command.kind === 'help') {
        io.out(USAGE);
        return EXIT_OK;
    }
    const outcome = await runCi(command.options, env);
    const c = outcome.counts;
    for (const finding of outcome.classification?.netNew ?? []) {
        io.out(`${finding.blocking ? 'BLOCKING' : 'net-new '} ${finding.severity.padEnd(8)} ${finding.path}:${finding.startLine ?? 1} ${finding.tool}${finding.ruleId ? ` ${finding.ruleId}` : ''}`);
    }
    for (const skipped of c.linters_skipped)
        io.out(`skipped  ${skipped.linter}: ${skipped.reason}`);
    io.out(`gate: ${c.net_new_count} net-new (${c.blocking_count} blocking), ${c.pre_existing_count} pre-existing, ${c.suppressed_count} suppressed, ${c.sops_ignored_count} SOPS-encrypted, ${c.no_location_count} without location`);
    (outcome.exitCode === EXIT_OK ? io.out : io.err)(`gate: ${outcome.message} (exit ${outcome.exitCode})`);
    return outcome.exitCode;
}


/***/ })

/******/ });
/************************************************************************/
/******/ // The module cache
/******/ var __webpack_module_cache__ = {};
/******/ 
/******/ // The require function
/******/ function __nccwpck_require__(moduleId) {
/******/ 	// Check if module is in cache
/******/ 	var cachedModule = __webpack_module_cache__[moduleId];
/******/ 	if (cachedModule !== undefined) {
/******/ 		return cachedModule.exports;
/******/ 	}
/******/ 	// Create a new module (and put it into the cache)
/******/ 	var module = __webpack_module_cache__[moduleId] = {
/******/ 		// no module.id needed
/******/ 		// no module.loaded needed
/******/ 		exports: {}
/******/ 	};
/******/ 
/******/ 	// Execute the module function
/******/ 	var threw = true;
/******/ 	try {
/******/ 		__webpack_modules__[moduleId](module, module.exports, __nccwpck_require__);
/******/ 		threw = false;
/******/ 	} finally {
/******/ 		if(threw) delete __webpack_module_cache__[moduleId];
/******/ 	}
/******/ 
/******/ 	// Return the exports of the module
/******/ 	return module.exports;
/******/ }
/******/ 
/******/ // expose the modules object (__webpack_modules__)
/******/ __nccwpck_require__.m = __webpack_modules__;
/******/ 
/************************************************************************/
/******/ /* webpack/runtime/asset-relocator-loader */
/******/ if (typeof __nccwpck_require__ !== 'undefined') __nccwpck_require__.ab = decodeURIComponent(new URL('.', import.meta.url).pathname).slice(import.meta.url.match(/^file:\/\/\/\w:/) ? 1 : 0, -1) + "/";
/******/ 
/******/ /* webpack/runtime/async module */
/******/ (() => {
/******/ 	var webpackQueues = typeof Symbol === "function" ? Symbol("webpack queues") : "__webpack_queues__";
/******/ 	var webpackExports = typeof Symbol === "function" ? Symbol("webpack exports") : "__webpack_exports__";
/******/ 	var webpackError = typeof Symbol === "function" ? Symbol("webpack error") : "__webpack_error__";
/******/ 	var resolveQueue = (queue) => {
/******/ 		if(queue && queue.d < 1) {
/******/ 			queue.d = 1;
/******/ 			queue.forEach((fn) => (fn.r--));
/******/ 			queue.forEach((fn) => (fn.r-- ? fn.r++ : fn()));
/******/ 		}
/******/ 	}
/******/ 	var wrapDeps = (deps) => (deps.map((dep) => {
/******/ 		if(dep !== null && typeof dep === "object") {
/******/ 			if(dep[webpackQueues]) return dep;
/******/ 			if(dep.then) {
/******/ 				var queue = [];
/******/ 				queue.d = 0;
/******/ 				dep.then((r) => {
/******/ 					obj[webpackExports] = r;
/******/ 					resolveQueue(queue);
/******/ 				}, (e) => {
/******/ 					obj[webpackError] = e;
/******/ 					resolveQueue(queue);
/******/ 				});
/******/ 				var obj = {};
/******/ 				obj[webpackQueues] = (fn) => (fn(queue));
/******/ 				return obj;
/******/ 			}
/******/ 		}
/******/ 		var ret = {};
/******/ 		ret[webpackQueues] = x => {};
/******/ 		ret[webpackExports] = dep;
/******/ 		return ret;
/******/ 	}));
/******/ 	__nccwpck_require__.a = (module, body, hasAwait) => {
/******/ 		var queue;
/******/ 		hasAwait && ((queue = []).d = -1);
/******/ 		var depQueues = new Set();
/******/ 		var exports = module.exports;
/******/ 		var currentDeps;
/******/ 		var outerResolve;
/******/ 		var reject;
/******/ 		var promise = new Promise((resolve, rej) => {
/******/ 			reject = rej;
/******/ 			outerResolve = resolve;
/******/ 		});
/******/ 		promise[webpackExports] = exports;
/******/ 		promise[webpackQueues] = (fn) => (queue && fn(queue), depQueues.forEach(fn), promise["catch"](x => {}));
/******/ 		module.exports = promise;
/******/ 		body((deps) => {
/******/ 			currentDeps = wrapDeps(deps);
/******/ 			var fn;
/******/ 			var getResult = () => (currentDeps.map((d) => {
/******/ 				if(d[webpackError]) throw d[webpackError];
/******/ 				return d[webpackExports];
/******/ 			}))
/******/ 			var promise = new Promise((resolve) => {
/******/ 				fn = () => (resolve(getResult));
/******/ 				fn.r = 0;
/******/ 				var fnQueue = (q) => (q !== queue && !depQueues.has(q) && (depQueues.add(q), q && !q.d && (fn.r++, q.push(fn))));
/******/ 				currentDeps.map((dep) => (dep[webpackQueues](fnQueue)));
/******/ 			});
/******/ 			return fn.r ? promise : getResult();
/******/ 		}, (err) => ((err ? reject(promise[webpackError] = err) : outerResolve(exports)), resolveQueue(queue)));
/******/ 		queue && queue.d < 0 && (queue.d = 0);
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/create fake namespace object */
/******/ (() => {
/******/ 	var getProto = Object.getPrototypeOf ? (obj) => (Object.getPrototypeOf(obj)) : (obj) => (obj.__proto__);
/******/ 	var leafPrototypes;
/******/ 	// create a fake namespace object
/******/ 	// mode & 1: value is a module id, require it
/******/ 	// mode & 2: merge all properties of value into the ns
/******/ 	// mode & 4: return value when already ns object
/******/ 	// mode & 16: return value when it's Promise-like
/******/ 	// mode & 8|1: behave like require
/******/ 	__nccwpck_require__.t = function(value, mode) {
/******/ 		if(mode & 1) value = this(value);
/******/ 		if(mode & 8) return value;
/******/ 		if(typeof value === 'object' && value) {
/******/ 			if((mode & 4) && value.__esModule) return value;
/******/ 			if((mode & 16) && typeof value.then === 'function') return value;
/******/ 		}
/******/ 		var ns = Object.create(null);
/******/ 		__nccwpck_require__.r(ns);
/******/ 		var def = {};
/******/ 		leafPrototypes = leafPrototypes || [null, getProto({}), getProto([]), getProto(getProto)];
/******/ 		for(var current = mode & 2 && value; typeof current == 'object' && !~leafPrototypes.indexOf(current); current = getProto(current)) {
/******/ 			Object.getOwnPropertyNames(current).forEach((key) => (def[key] = () => (value[key])));
/******/ 		}
/******/ 		def['default'] = () => (value);
/******/ 		__nccwpck_require__.d(ns, def);
/******/ 		return ns;
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/define property getters */
/******/ (() => {
/******/ 	// define getter functions for harmony exports
/******/ 	__nccwpck_require__.d = (exports, definition) => {
/******/ 		for(var key in definition) {
/******/ 			if(__nccwpck_require__.o(definition, key) && !__nccwpck_require__.o(exports, key)) {
/******/ 				Object.defineProperty(exports, key, { enumerable: true, get: definition[key] });
/******/ 			}
/******/ 		}
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/ensure chunk */
/******/ (() => {
/******/ 	__nccwpck_require__.f = {};
/******/ 	// This file contains only the entry chunk.
/******/ 	// The chunk loading function for additional chunks
/******/ 	__nccwpck_require__.e = (chunkId) => {
/******/ 		return Promise.all(Object.keys(__nccwpck_require__.f).reduce((promises, key) => {
/******/ 			__nccwpck_require__.f[key](chunkId, promises);
/******/ 			return promises;
/******/ 		}, []));
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/get javascript chunk filename */
/******/ (() => {
/******/ 	// This function allow to reference async chunks
/******/ 	__nccwpck_require__.u = (chunkId) => {
/******/ 		// return url for filenames based on template
/******/ 		return "" + chunkId + ".index.js";
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/hasOwnProperty shorthand */
/******/ (() => {
/******/ 	__nccwpck_require__.o = (obj, prop) => (Object.prototype.hasOwnProperty.call(obj, prop))
/******/ })();
/******/ 
/******/ /* webpack/runtime/make namespace object */
/******/ (() => {
/******/ 	// define __esModule on exports
/******/ 	__nccwpck_require__.r = (exports) => {
/******/ 		if(typeof Symbol !== 'undefined' && Symbol.toStringTag) {
/******/ 			Object.defineProperty(exports, Symbol.toStringTag, { value: 'Module' });
/******/ 		}
/******/ 		Object.defineProperty(exports, '__esModule', { value: true });
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/import chunk loading */
/******/ (() => {
/******/ 	// no baseURI
/******/ 	
/******/ 	// object to store loaded and loading chunks
/******/ 	// undefined = chunk not loaded, null = chunk preloaded/prefetched
/******/ 	// [resolve, Promise] = chunk loading, 0 = chunk loaded
/******/ 	var installedChunks = {
/******/ 		792: 0
/******/ 	};
/******/ 	
/******/ 	var installChunk = (data) => {
/******/ 		var {ids, modules, runtime} = data;
/******/ 		// add "modules" to the modules object,
/******/ 		// then flag all "ids" as loaded and fire callback
/******/ 		var moduleId, chunkId, i = 0;
/******/ 		for(moduleId in modules) {
/******/ 			if(__nccwpck_require__.o(modules, moduleId)) {
/******/ 				__nccwpck_require__.m[moduleId] = modules[moduleId];
/******/ 			}
/******/ 		}
/******/ 		if(runtime) runtime(__nccwpck_require__);
/******/ 		for(;i < ids.length; i++) {
/******/ 			chunkId = ids[i];
/******/ 			if(__nccwpck_require__.o(installedChunks, chunkId) && installedChunks[chunkId]) {
/******/ 				installedChunks[chunkId][0]();
/******/ 			}
/******/ 			installedChunks[ids[i]] = 0;
/******/ 		}
/******/ 	
/******/ 	}
/******/ 	
/******/ 	__nccwpck_require__.f.j = (chunkId, promises) => {
/******/ 			// import() chunk loading for javascript
/******/ 			var installedChunkData = __nccwpck_require__.o(installedChunks, chunkId) ? installedChunks[chunkId] : undefined;
/******/ 			if(installedChunkData !== 0) { // 0 means "already installed".
/******/ 	
/******/ 				// a Promise means "currently loading".
/******/ 				if(installedChunkData) {
/******/ 					promises.push(installedChunkData[1]);
/******/ 				} else {
/******/ 					if(true) { // all chunks have JS
/******/ 						// setup Promise in chunk cache
/******/ 						var promise = import("./" + __nccwpck_require__.u(chunkId)).then(installChunk, (e) => {
/******/ 							if(installedChunks[chunkId] !== 0) installedChunks[chunkId] = undefined;
/******/ 							throw e;
/******/ 						});
/******/ 						var promise = Promise.race([promise, new Promise((resolve) => (installedChunkData = installedChunks[chunkId] = [resolve]))])
/******/ 						promises.push(installedChunkData[1] = promise);
/******/ 					}
/******/ 				}
/******/ 			}
/******/ 	};
/******/ 	
/******/ 	// no prefetching
/******/ 	
/******/ 	// no preloaded
/******/ 	
/******/ 	// no external install chunk
/******/ 	
/******/ 	// no on chunks loaded
/******/ })();
/******/ 
/************************************************************************/
/******/ 
/******/ // startup
/******/ // Load entry module and return exports
/******/ // This entry module used 'module' so it can't be inlined
/******/ var __webpack_exports__ = __nccwpck_require__(5140);
/******/ __webpack_exports__ = await __webpack_exports__;
/******/ 
