#!/usr/bin/env node
import { createRequire as __WEBPACK_EXTERNAL_createRequire } from "module";
/******/ var __webpack_modules__ = ({

/***/ 181:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("buffer");

/***/ }),

/***/ 3024:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs");

/***/ }),

/***/ 932:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("process");

/***/ }),

/***/ 5140:
/***/ ((__webpack_module__, __unused_webpack___webpack_exports__, __nccwpck_require__) => {

__nccwpck_require__.a(__webpack_module__, async (__webpack_handle_async_dependencies__, __webpack_async_result__) => { try {
/* harmony import */ var _outputs_cli_output_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(8579);
/* harmony import */ var _command_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(2816);
/* harmony import */ var _runner_event_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(4843);



const io = new _outputs_cli_output_js__WEBPACK_IMPORTED_MODULE_2__/* .CliOutput */ .I(process.stdout, process.stderr);
try {
    process.exitCode = await (0,_command_js__WEBPACK_IMPORTED_MODULE_0__/* .gateCommand */ .B)(process.argv.slice(2), process.env, process.cwd(), io, (0,_runner_event_js__WEBPACK_IMPORTED_MODULE_1__/* .runnerEvent */ .j)(process.env));
}
finally {
    io.flush();
}

__webpack_async_result__();
} catch(e) { __webpack_async_result__(e); } }, 1);

/***/ }),

/***/ 2816:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  B: () => (/* binding */ gateCommand)
});

// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __nccwpck_require__(3024);
;// CONCATENATED MODULE: external "node:path"
const external_node_path_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:path");
;// CONCATENATED MODULE: external "node:url"
const external_node_url_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:url");
;// CONCATENATED MODULE: ./build/server/version.js



/** The npm package of the two CLIs (packages/cli) as committed; a release names it @<owner>/gatehouse-cli. */
const CLI_PACKAGE = 'gatehouse-cli';
/** `gatehouse-cli` or an organisation's `@<owner>/gatehouse-cli` (scripts/release-cli.js). */
function isCliPackageName(name) {
    return name === CLI_PACKAGE || (name?.startsWith('@') === true && name.endsWith(`/${CLI_PACKAGE}`));
}
/**
 * The package version, read once from the project's package.json (found by walking up, so it
 * works from the sources and from the compiled `build/` tree alike). The CLIs' npm package
 * (packages/cli, `@<owner>/gatehouse-cli` once released) carries the same version, so its bundles find theirs there.
 */
function packageVersion() {
    let dir = (0,external_node_path_namespaceObject.dirname)((0,external_node_url_namespaceObject.fileURLToPath)(import.meta.url));
    for (;;) {
        try {
            const pkg = JSON.parse((0,external_node_fs_.readFileSync)((0,external_node_path_namespaceObject.join)(dir, 'package.json'), 'utf8'));
            if ((pkg.name === 'gatehouse' || isCliPackageName(pkg.name)) && pkg.version)
                return pkg.version;
        }
        catch {
            // not here: keep walking up
        }
        const parent = (0,external_node_path_namespaceObject.dirname)(dir);
        if (parent === dir)
            return '0.0.0';
        dir = parent;
    }
}

;// CONCATENATED MODULE: ./build/actions/shared/event.js
/** No event: what a run outside the runner (the command line elsewhere, a test) sees. */
const NO_EVENT = { eventName: undefined, payload: {} };

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
class GateError extends Error {
    name = 'GateError';
}
/** A command-line mistake: printed with the usage text of the command it was made in. */
class GateUsageError extends GateError {
    usage;
    name = 'GateUsageError';
    constructor(message, usage) {
        super(message);
        this.usage = usage;
    }
}
/**
 * The last line of every exit 2: "no answer" in capitals, so neither a skimming reader nor a log
 * tail takes it for a pass.
 */
const noAnswerLine = (reason) => `gate: NO ANSWER (exit ${EXIT_ERROR}): ${reason}`;
function optionName(option, naming) {
    return naming === 'input' ? `the input ${option}` : `--${option}`;
}

;// CONCATENATED MODULE: ./build/actions/gate/rules/severity.js
const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'];
const FAIL_ON = ['critical', 'high', 'medium', 'low', 'any', 'none'];
/** Each run's rules by id, driver first, then its extensions in order: built once a run, so a lookup by id is not a scan of every rule. */
const rulesById = new WeakMap();
function byId(run) {
    let map = rulesById.get(run);
    if (!map) {
        map = new Map();
        for (const rules of [run.tool.driver.rules, ...(run.tool.extensions ?? []).map((e) => e?.rules)]) {
            for (const rule of Array.isArray(rules) ? rules : [])
                if (typeof rule?.id === 'string' && !map.has(rule.id))
                    map.set(rule.id, rule);
        }
        rulesById.set(run, map);
    }
    return map;
}
/**
 * The rule a result points at: by index into the driver's rules, or an extension's when
 * `rule.toolComponent` names one (by index, else by name or guid, as CodeQL writes rules of query
 * packs); else by id, among the driver's and every extension's rules; a hierarchical id
 * (`CA1000/1`, SARIF §3.27.5) falls back to its first component.
 */
function ruleOf(run, result) {
    const component = result.rule?.toolComponent;
    const extensions = run.tool.extensions ?? [];
    let rules = run.tool.driver.rules;
    if (component) {
        const extension = typeof component.index === 'number'
            ? extensions[component.index]
            : extensions.find((e) => (component.guid !== undefined && e?.guid === component.guid) || (component.name !== undefined && e?.name === component.name));
        // A reference to the driver itself (its name) keeps the driver's rules.
        if (extension)
            rules = extension.rules;
    }
    const index = result.rule?.index ?? result.ruleIndex;
    if (typeof index === 'number' && Array.isArray(rules) && rules[index])
        return rules[index];
    const id = result.ruleId ?? result.rule?.id;
    if (typeof id !== 'string')
        return undefined;
    const all = byId(run);
    const own = rules !== run.tool.driver.rules && Array.isArray(rules) ? rules.find((r) => r?.id === id) : undefined;
    return own ?? all.get(id) ?? (id.includes('/') ? all.get(id.slice(0, id.indexOf('/'))) : undefined);
}
/** A result's rule id: its own `ruleId` or `rule.id`, else the id of the rule its index points at. */
function ruleIdOf(run, result, rule) {
    const id = result.ruleId ?? result.rule?.id ?? (rule ?? ruleOf(run, result))?.id;
    return typeof id === 'string' && id !== '' ? id : undefined;
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
function severityOf(run, result, known) {
    const rule = known ?? ruleOf(run, result);
    const scored = band(rule?.properties?.['security-severity']) ?? band(result.properties?.['security-severity']);
    if (scored)
        return scored;
    const level = levelOf(result, rule);
    return level === 'error' ? 'high' : level === 'warning' ? 'medium' : level === 'note' ? 'low' : 'info';
}
/**
 * The result's level: its own, else (SARIF §3.27.10) `none` when its `kind` is other than `fail`
 * (`review`, `open`: not a failure), else the rule's default, else `warning`.
 */
function levelOf(result, rule) {
    if (typeof result.level === 'string')
        return result.level;
    if (typeof result.kind === 'string' && result.kind !== 'fail')
        return 'none';
    return rule?.defaultConfiguration?.level ?? 'warning';
}
function blocks(severity, failOn) {
    if (failOn === 'none')
        return false;
    if (failOn === 'any')
        return true;
    return SEVERITIES.indexOf(severity) <= SEVERITIES.indexOf(failOn);
}

;// CONCATENATED MODULE: external "node:child_process"
const external_node_child_process_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:child_process");
;// CONCATENATED MODULE: ./build/actions/gate/diff/commit-files.js

/**
 * Files of a repository's commits as text or lines, each read once (`git cat-file blob
 * <commit>:<path>`) and shared by every rule that asks: undefined when the commit has no such
 * file. Read synchronously: the rules ask one result at a time, and only for the few files they
 * must read.
 */
class CommitFiles {
    repo;
    texts = new Map();
    lineLists = new Map();
    constructor(repo) {
        this.repo = repo;
    }
    text(commit, path) {
        const key = `${commit}:${path}`;
        if (!this.texts.has(key)) {
            let text;
            try {
                text = (0,external_node_child_process_namespaceObject.execFileSync)('git', ['-C', this.repo, 'cat-file', 'blob', key], { encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'ignore'] });
            }
            catch {
                text = undefined;
            }
            this.texts.set(key, text);
        }
        return this.texts.get(key);
    }
    lines(commit, path) {
        const key = `${commit}:${path}`;
        if (!this.lineLists.has(key)) {
            const text = this.text(commit, path);
            // The lines are what the rules keep: the text itself is not held twice.
            this.texts.delete(key);
            this.lineLists.set(key, text?.split(/\r?\n/));
        }
        return this.lineLists.get(key);
    }
}

;// CONCATENATED MODULE: ./build/actions/gate/rules/dependencies.js
/** `pkg:type/namespace/name@version?qualifiers#subpath` (the package URL spec), decoded. */
function parsePurl(purl) {
    const match = /^pkg:([a-z][a-z0-9.+-]*)\/([^?#\s]+)/i.exec(purl.trim());
    if (!match)
        return undefined;
    const type = match[1].toLowerCase();
    let path = match[2];
    let version;
    const at = path.lastIndexOf('@');
    if (at > 0) {
        version = path.slice(at + 1);
        path = path.slice(0, at);
    }
    let parts;
    try {
        parts = path.split('/').filter(Boolean).map((p) => decodeURIComponent(p));
        if (version !== undefined)
            version = decodeURIComponent(version);
    }
    catch {
        return undefined;
    }
    const name = parts.pop();
    if (!name)
        return undefined;
    const namespace = parts.join('/');
    const names = !namespace ? [name] : type === 'maven' ? [`${namespace}:${name}`, name] : [`${namespace}/${name}`];
    return { names, ...(version ? { version } : {}) };
}
function fromNameVersion(name, version) {
    const n = name?.trim();
    if (!n)
        return undefined;
    // Maven coordinates `group:artifact`: the pom names the artifact on its own line.
    const names = n.includes(':') && !n.startsWith('pkg:') ? [n, n.slice(n.lastIndexOf(':') + 1)] : [n];
    const v = version?.trim();
    return { names, ...(v ? { version: v } : {}) };
}
const TEXT_PATTERNS = [
    // Trivy: "Package: lodash\nInstalled Version: 4.17.20\nVulnerability CVE-…"
    /Package: *(\S+)\s*\n\s*Installed Version: *(\S+)/,
    // grype: "A high vulnerability in npm package: lodash, version 4.17.20 was found at: /package-lock.json"
    /package: *(\S+?), version (\S+) was found/,
    // osv-scanner: "Package 'lodash@4.17.20' is vulnerable to 'GHSA-…'" (scoped npm names hold an @ too)
    /Package '(.+)@([^@']+)' is vulnerable/,
    // Anchore's scan-action v1: "… vulnerability: (bash-4.3-14ubuntu1.4 type=dpkg)"
    /\(([A-Za-z0-9_.+]+(?:-[A-Za-z][A-Za-z0-9_.+]*)*)-(\d[^\s)]*) type=[a-z-]+\)/,
];
/**
 * What some tools write only in the rule's help: Trivy's older template ("Package: openssl" /
 * "Installed Version: 1.1.1c-r0"), grype ("Package: nginx" / "Version: 1.29.5-r0").
 */
const HELP_PATTERNS = [/^Package: *(\S+)\s*\n(?:.*\n)*?Installed Version: *(\S+)/m, /^Package: *(\S+)\s*\nVersion: *(\S+)/m];
/** `name@version` as Snyk writes a package in a result's logical location (`bash@5.0-6ubuntu2`, `@scope/pkg@1.2.3`): a version starting with a digit. */
const NAME_AT_VERSION = /^(@?[A-Za-z0-9][\w.+\/-]*)@(\d[\w.+:~-]*)$/;
// Only names that cannot mean anything but a package: a code finding misread as a dependency one
// would be judged by the wrong rule.
const NAME_KEYS = ['PkgName', 'pkgName', 'packageName', 'package_name', 'pkg_name'];
const PURL_KEYS = ['purl', 'purls', 'packageUrl', 'package_url'];
const VERSION_KEYS = ['InstalledVersion', 'installedVersion', 'packageVersion', 'package_version', 'installed_version'];
function purlIn(values) {
    if (values === undefined)
        return undefined;
    for (const v of Array.isArray(values) ? values : [values]) {
        if (typeof v === 'string' && v.startsWith('pkg:')) {
            const p = parsePurl(v);
            if (p)
                return p;
        }
    }
    return undefined;
}
function purlInValues(prints) {
    return prints && typeof prints === 'object' ? purlIn(Object.values(prints)) : undefined;
}
/**
 * The package a result names, or undefined: properties (`PkgName`/`InstalledVersion` and the
 * like, `purl`/`purls`), fingerprints holding a package URL, Snyk's `name@version` logical
 * location, then the message text as Trivy, grype, osv-scanner and Anchore write it, then any
 * package URL in the message, then its rule's package URLs (grype's `properties.purls`) or help
 * text (Trivy's older template).
 */
function packageOf(result, rule) {
    // Called for every result in a changed file: the common case (no properties, no fingerprints,
    // no package in the message) allocates nothing.
    const props = result.properties;
    if (props && typeof props === 'object') {
        for (const key of PURL_KEYS) {
            const p = purlIn(props[key]);
            if (p)
                return p;
        }
        const nameKey = NAME_KEYS.find((k) => typeof props[k] === 'string' && props[k]);
        if (nameKey) {
            const versionKey = VERSION_KEYS.find((k) => typeof props[k] === 'string' && props[k]);
            const p = fromNameVersion(props[nameKey], versionKey ? props[versionKey] : undefined);
            if (p)
                return p;
        }
    }
    const fingerprinted = purlInValues(result.partialFingerprints) ?? purlInValues(result.fingerprints);
    if (fingerprinted)
        return fingerprinted;
    const logical = logicalPackage(result);
    if (logical)
        return logical;
    const text = result.message?.text;
    if (typeof text === 'string') {
        // Most results name no package: a few substring tests spare them the patterns.
        if (text.includes('ackage') || text.includes(' type=')) {
            for (const pattern of TEXT_PATTERNS) {
                const m = pattern.exec(text);
                if (m)
                    return fromNameVersion(m[1], m[2]);
            }
        }
        const purl = text.includes('pkg:') ? /pkg:[a-z][a-z0-9.+-]*\/[^\s"'<>()]+/i.exec(text) : null;
        if (purl)
            return parsePurl(purl[0]);
    }
    return rule ? ruleHelpPackage(rule) : undefined;
}
/** Snyk: the first location's `logicalLocations[].fullyQualifiedName` as `name@version`. */
function logicalPackage(result) {
    const logical = result.locations?.[0]?.logicalLocations;
    if (!Array.isArray(logical))
        return undefined;
    for (const l of logical) {
        const m = typeof l?.fullyQualifiedName === 'string' ? NAME_AT_VERSION.exec(l.fullyQualifiedName) : null;
        if (m)
            return fromNameVersion(m[1], m[2]);
    }
    return undefined;
}
function ruleHelpPackage(rule) {
    const purl = purlIn(rule.properties?.purls);
    if (purl)
        return purl;
    const help = rule.help?.text;
    if (typeof help !== 'string' || !help.includes('Package:'))
        return undefined;
    for (const pattern of HELP_PATTERNS) {
        const m = pattern.exec(help);
        if (m)
            return fromNameVersion(m[1], m[2]);
    }
    return undefined;
}
/**
 * Lockfiles by name: machine-written, read only by dependency scanners, whose line 1 is a
 * placeholder. (Manifests such as package.json or pom.xml are also linted, with real lines.)
 */
const LOCKFILES = new Set([
    'package-lock.json',
    'npm-shrinkwrap.json',
    'yarn.lock',
    'pnpm-lock.yaml',
    'bun.lock',
    'go.sum',
    'gradle.lockfile',
    'uv.lock',
    'poetry.lock',
    'Pipfile.lock',
    'pdm.lock',
    'Cargo.lock',
    'Gemfile.lock',
    'composer.lock',
    'packages.lock.json',
    'mix.lock',
    'pubspec.lock',
    'Podfile.lock',
    'Package.resolved',
    'conan.lock',
]);
function isLockfile(path) {
    return LOCKFILES.has(path.slice(path.lastIndexOf('/') + 1));
}
const dependencies_escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A name as it appears in lockfiles: case aside, `-`, `_` and `.` interchangeable (PyPI's rule). */
function nameRegExp(name) {
    const body = name
        .split(/[-_.]/)
        .map(dependencies_escape)
        .join('[-_.]');
    // Not inside a longer name: `lodash` does not match `lodash.merge` or `lodash-es`, but does
    // match `lodash-4.17.21.tgz` and `lodash@4.17.21`.
    return new RegExp(`(?<![A-Za-z0-9_.-])${body}(?![A-Za-z0-9_]|[-_.][A-Za-z])`, 'i');
}
/** A version with an optional leading `v` (go.mod writes v1.2.3, osv-scanner 1.2.3), not a prefix of a longer one. */
function versionRegExp(version) {
    const core = dependencies_escape(version.replace(/^v(?=\d)/, ''));
    return new RegExp(`(?<![0-9A-Za-z.])v?${core}(?![0-9]|\\.[0-9])`);
}
/** A version as lockfiles write one: digits and dots, an optional leading `v` or epoch, a suffix (`-r4`, `+build`, `~rc1`). */
const VERSION_TOKEN = /(?<![0-9A-Za-z.])(?:\d+:)?v?\d+(?:\.\d+)*(?:[-+~][0-9A-Za-z.+~]+)?(?![0-9A-Za-z])/g;
function indentOf(line) {
    let i = 0;
    while (i < line.length && (line[i] === ' ' || line[i] === '\t'))
        i++;
    return i;
}
const blank = (line) => line.trim() === '';
/**
 * The entry an added line belongs to, as line indexes [from, to]: for an indented line, its
 * parent (the nearest line above with less indentation) and all the parent's children, which
 * is a package's object in package-lock.json, its `<dependency>` in pom.xml, its entry in
 * yarn.lock and pnpm-lock.yaml; for an unindented line, its paragraph (lines between blank
 * lines), which is a `[[package]]` table in Cargo.lock, poetry.lock and uv.lock.
 */
function entryOf(lines, index) {
    const indent = indentOf(lines[index]);
    if (indent === 0 || blank(lines[index])) {
        let from = index;
        while (from > 0 && !blank(lines[from - 1]))
            from--;
        let to = index;
        while (to + 1 < lines.length && !blank(lines[to + 1]))
            to++;
        return [from, to];
    }
    let parent = index - 1;
    while (parent >= 0 && (blank(lines[parent]) || indentOf(lines[parent]) >= indent))
        parent--;
    if (parent < 0)
        return [0, lines.length - 1];
    const parentIndent = indentOf(lines[parent]);
    let to = index;
    while (to + 1 < lines.length && (blank(lines[to + 1]) || indentOf(lines[to + 1]) > parentIndent))
        to++;
    return [parent, to];
}
/**
 * Whether the pull request introduced a package in a changed file: the package appears on an
 * added line of it. With a version, the version must be on the added line and the name on it or
 * in its entry (a version bump in package-lock.json, Cargo.lock or pom.xml changes the version
 * line, not the name line). Head files are read from git only for the files asked about.
 */
class DependencyChanges {
    diff;
    files;
    answers = new Map();
    constructor(diff, files) {
        this.diff = diff;
        this.files = files;
    }
    introduces(path, pkg) {
        const added = this.diff.files.get(path);
        if (added === undefined)
            return false;
        if (added === 'all')
            return true;
        const key = `${path}\u0000${pkg.names.join('\u0000')}\u0000${pkg.version ?? ''}`;
        let answer = this.answers.get(key);
        if (answer === undefined) {
            const lines = this.files.lines(this.diff.head, path);
            // A changed file that cannot be read at head cannot clear the finding.
            answer = lines === undefined || this.onAddedLine(lines, added, pkg);
            this.answers.set(key, answer);
        }
        return answer;
    }
    onAddedLine(lines, added, pkg) {
        const names = pkg.names.map(nameRegExp);
        const version = pkg.version ? versionRegExp(pkg.version) : undefined;
        // A plain substring test first: a regenerated lockfile can have many thousand added lines.
        const core = pkg.version?.replace(/^v(?=\d)/, '');
        const named = (text) => names.some((n) => n.test(text));
        for (const n of added) {
            const text = lines[n - 1];
            if (text === undefined)
                continue;
            if (version && (!text.includes(core) || !version.test(text)))
                continue;
            if (named(text))
                return true;
            const [from, to] = entryOf(lines, n - 1);
            for (let i = from; i <= to; i++)
                if (i !== n - 1 && named(lines[i]))
                    return true;
        }
        return false;
    }
    /**
     * The versions the package had in this file at the merge-base: each version on a line naming it
     * (after the name: `lodash@4.17.20`, `golang.org/x/net v0.17.0`, `rails (7.0.1)`), and on each
     * line of its entry that speaks of a version (`"version": "4.17.20"`, `version = "46.0.5"`).
     * Empty when the file or the package was not there.
     */
    baseVersions(path, pkg) {
        const lines = this.files.lines(this.diff.mergeBase, path);
        if (!lines)
            return [];
        const names = pkg.names.map(nameRegExp);
        const found = new Set();
        const collect = (text) => {
            for (const m of text.matchAll(VERSION_TOKEN))
                found.add(m[0]);
        };
        lines.forEach((line, i) => {
            const match = names.map((n) => n.exec(line)).find((m) => m !== null);
            if (!match)
                return;
            collect(line.slice(match.index + match[0].length));
            const [from, to] = entryOf(lines, i);
            for (let j = from; j <= to; j++)
                if (j !== i && /version/i.test(lines[j]))
                    collect(lines[j].slice(lines[j].search(/version/i)));
        });
        return [...found];
    }
}

;// CONCATENATED MODULE: ./build/actions/gate/rules/images.js
/*
 * Container image scanners (grype, Trivy image, Snyk Container) put an image's packages on its
 * Dockerfile: on line 1, or on the `FROM` line. Those lines rarely change, so the line-based rule
 * would call every package of a new base image pre-existing. An image finding is judged by the
 * image instead: it is net-new when the pull request changed what the image is built from.
 */
/**
 * `Dockerfile` and `Containerfile` (any case), `Dockerfile.<x>` and `Containerfile.<x>` (as builders'
 * `-f` conventions write them, capitalised: a source file `dockerfile.go` is not one), and
 * `<x>.Dockerfile`, `<x>.dockerfile`, `<x>.Containerfile`.
 */
const CONTAINERFILE = /^(?:(?:[Dd]ocker|[Cc]ontainer)file|DOCKERFILE|(?:Docker|Container)file\..+|.+\.(?:[Dd]ocker|[Cc]ontainer)file)$/;
function isContainerfile(path) {
    return CONTAINERFILE.test(path.slice(path.lastIndexOf('/') + 1));
}
/** The escape character: `\`, or the one a leading `# escape=` parser directive names. */
function escapeOf(lines) {
    for (const line of lines) {
        const directive = /^\s*#\s*escape\s*=\s*(\S)\s*$/i.exec(line);
        if (directive)
            return directive[1];
        // Directives come first: any other line, comment or not, ends them.
        if (!/^\s*#\s*\w+\s*=/.test(line))
            break;
    }
    return '\\';
}
/** The instructions of a Dockerfile, each with the lines it spans (comments and blank lines skipped). */
function instructionsOf(lines) {
    const escape = escapeOf(lines);
    const instructions = [];
    let current;
    lines.forEach((raw, index) => {
        const line = raw.replace(/\r$/, '');
        if (!current && (/^\s*#/.test(line) || line.trim() === ''))
            return;
        const continued = line.trimEnd().endsWith(escape);
        const part = continued ? line.trimEnd().slice(0, -1) : line;
        if (!current)
            current = { parts: [], from: index + 1 };
        // Comment lines inside a continued instruction are dropped, as the builder does.
        if (!/^\s*#/.test(line))
            current.parts.push(part);
        if (continued)
            return;
        const text = current.parts.join(' ').trim();
        instructions.push({ keyword: (/^(\S+)/.exec(text)?.[1] ?? '').toUpperCase(), text, from: current.from, to: index + 1 });
        current = undefined;
    });
    if (current) {
        const text = current.parts.join(' ').trim();
        instructions.push({ keyword: (/^(\S+)/.exec(text)?.[1] ?? '').toUpperCase(), text, from: current.from, to: lines.length });
    }
    return instructions;
}
/** The lines that say what an image is built from: every `FROM`, and every `ARG` a `FROM` reads. */
function baseImageLines(lines) {
    const instructions = instructionsOf(lines);
    const froms = instructions.filter((i) => i.keyword === 'FROM');
    const used = new Set();
    for (const from of froms)
        for (const m of from.text.matchAll(/\$\{?([A-Za-z_][A-Za-z0-9_]*)/g))
            used.add(m[1]);
    const result = new Set();
    const mark = (i) => {
        for (let n = i.from; n <= i.to; n++)
            result.add(n);
    };
    froms.forEach(mark);
    for (const arg of instructions.filter((i) => i.keyword === 'ARG')) {
        const names = arg.text
            .slice(3)
            .trim()
            .split(/\s+/)
            .map((d) => d.split('=')[0]);
        if (names.some((n) => used.has(n)))
            mark(arg);
    }
    return result;
}
/** Whether the pull request changed what each Dockerfile's images are built from; head files read once, from git. */
class ImageChanges {
    diff;
    files;
    answers = new Map();
    constructor(diff, files) {
        this.diff = diff;
        this.files = files;
    }
    /** True when the file is new, or an added line is a `FROM` (or an `ARG` a `FROM` reads); a changed file unreadable at head counts as changed. */
    baseChanged(path) {
        const added = this.diff.files.get(path);
        if (added === undefined)
            return false;
        if (added === 'all')
            return true;
        let answer = this.answers.get(path);
        if (answer === undefined) {
            const lines = this.files.lines(this.diff.head, path);
            answer = lines === undefined || [...baseImageLines(lines)].some((n) => added.has(n));
            this.answers.set(path, answer);
        }
        return answer;
    }
}

;// CONCATENATED MODULE: ./build/actions/gate/reports/no-sarif-linters.js
/**
 * MegaLinter linters whose descriptor lacks `can_output_sarif: true`, per major version: they never
 * reach the merged SARIF report, so an enabled one is skipped by name. Read from
 * oxsecurity/megalinter's descriptor files (`megalinter/descriptors/*.megalinter-descriptor.yml`,
 * the key being a linter's `name`, else `<descriptor_id>_<LINTER_NAME>` with `-` as `_`, as
 * Linter.py builds it): v6 at tag v6.22.2 (93700f8c, the last v6 release), v7 at tag v7.13.0
 * (bacb5f86, the last v7 release), both read from forks that carry the upstream tags, since the
 * upstream snapshot was too large to fetch here; v8 at v8.8.0 (e08c2b05) and v9 at v9.6.0
 * (ef3e84b8); v10 at v10.0.0 (15e5b455) from the linter table of its README, which is generated
 * from the descriptors and shows the SARIF badge exactly when `can_output_sarif` is true. Each
 * major's table is its last (or a late) release: a linter that gained SARIF within a major is
 * missing from an older minor's report, not skipped, and so is still reported. Disabled and
 * deprecated linters are included (enabling one still yields no SARIF). Regenerate when a new
 * major ships.
 */
const NO_SARIF_LINTERS = {
    6: new Set([
        'ACTION_ACTIONLINT', 'ARM_ARM_TTK', 'BASH_EXEC', 'BASH_SHFMT', 'BICEP_BICEP_LINTER', 'CLOJURE_CLJ_KONDO',
        'COFFEE_COFFEELINT', 'COPYPASTE_JSCPD', 'CPP_CPPLINT', 'CSHARP_CSHARPIER', 'CSHARP_DOTNET_FORMAT',
        'CSS_SCSS_LINT', 'CSS_STYLELINT', 'C_CPPLINT', 'DART_DARTANALYZER', 'EDITORCONFIG_EDITORCONFIG_CHECKER',
        'ENV_DOTENV_LINTER', 'GHERKIN_GHERKIN_LINT', 'GO_GOLANGCI_LINT', 'GRAPHQL_GRAPHQL_SCHEMA_LINTER',
        'HTML_DJLINT', 'HTML_HTMLHINT', 'JAVASCRIPT_PRETTIER', 'JAVASCRIPT_STANDARD', 'JSON_JSONLINT',
        'JSON_NPM_PACKAGE_JSON_LINT', 'JSON_PRETTIER', 'JSON_V8R', 'KUBERNETES_HELM', 'KUBERNETES_KUBECONFORM',
        'KUBERNETES_KUBEVAL', 'LATEX_CHKTEX', 'LUA_LUACHECK', 'MAKEFILE_CHECKMAKE', 'MARKDOWN_MARKDOWNLINT',
        'MARKDOWN_MARKDOWN_LINK_CHECK', 'MARKDOWN_MARKDOWN_TABLE_FORMATTER', 'MARKDOWN_REMARK_LINT',
        'OPENAPI_SPECTRAL', 'PERL_PERLCRITIC', 'PHP_PHPCS', 'PHP_PHPLINT', 'PHP_PHPSTAN', 'POWERSHELL_POWERSHELL',
        'POWERSHELL_POWERSHELL_FORMATTER', 'PROTOBUF_PROTOLINT', 'PUPPET_PUPPET_LINT', 'PYTHON_BLACK',
        'PYTHON_FLAKE8', 'PYTHON_ISORT', 'PYTHON_MYPY', 'PYTHON_PYLINT', 'PYTHON_PYRIGHT', 'PYTHON_RUFF',
        'RAKU_RAKU', 'REPOSITORY_GIT_DIFF', 'REPOSITORY_GOODCHECK', 'RST_RSTCHECK', 'RST_RSTFMT', 'RST_RST_LINT',
        'RUBY_RUBOCOP', 'RUST_CLIPPY', 'R_LINTR', 'SALESFORCE_SFDX_SCANNER_APEX', 'SALESFORCE_SFDX_SCANNER_AURA',
        'SALESFORCE_SFDX_SCANNER_LWC', 'SCALA_SCALAFIX', 'SNAKEMAKE_LINT', 'SNAKEMAKE_SNAKEFMT', 'SPELL_CSPELL',
        'SPELL_MISSPELL', 'SPELL_PROSELINT', 'SQL_SQLFLUFF', 'SQL_SQL_LINT', 'SQL_TSQLLINT', 'SWIFT_SWIFTLINT',
        'TEKTON_TEKTON_LINT', 'TERRAFORM_KICS', 'TERRAFORM_TERRAFORM_FMT', 'TERRAFORM_TERRAGRUNT',
        'TYPESCRIPT_PRETTIER', 'TYPESCRIPT_STANDARD', 'VBDOTNET_DOTNET_FORMAT', 'XML_XMLLINT', 'YAML_PRETTIER',
        'YAML_V8R', 'YAML_YAMLLINT',
    ]),
    7: new Set([
        'ACTION_ACTIONLINT', 'API_SPECTRAL', 'ARM_ARM_TTK', 'BASH_EXEC', 'BASH_SHFMT', 'BICEP_BICEP_LINTER',
        'CLOJURE_CLJSTYLE', 'CLOJURE_CLJ_KONDO', 'COFFEE_COFFEELINT', 'COPYPASTE_JSCPD', 'CPP_CLANG_FORMAT',
        'CPP_CPPLINT', 'CSHARP_CSHARPIER', 'CSHARP_DOTNET_FORMAT', 'CSHARP_ROSLYNATOR', 'CSS_SCSS_LINT',
        'CSS_STYLELINT', 'C_CLANG_FORMAT', 'C_CPPLINT', 'DART_DARTANALYZER', 'EDITORCONFIG_EDITORCONFIG_CHECKER',
        'ENV_DOTENV_LINTER', 'GHERKIN_GHERKIN_LINT', 'GO_GOLANGCI_LINT', 'GRAPHQL_GRAPHQL_SCHEMA_LINTER',
        'HTML_DJLINT', 'HTML_HTMLHINT', 'JAVASCRIPT_PRETTIER', 'JAVASCRIPT_STANDARD', 'JSON_JSONLINT',
        'JSON_NPM_PACKAGE_JSON_LINT', 'JSON_PRETTIER', 'JSON_V8R', 'KOTLIN_DETEKT', 'KUBERNETES_HELM',
        'KUBERNETES_KUBECONFORM', 'LATEX_CHKTEX', 'LUA_LUACHECK', 'MAKEFILE_CHECKMAKE', 'MARKDOWN_MARKDOWNLINT',
        'MARKDOWN_MARKDOWN_LINK_CHECK', 'MARKDOWN_MARKDOWN_TABLE_FORMATTER', 'MARKDOWN_REMARK_LINT',
        'OPENAPI_SPECTRAL', 'PERL_PERLCRITIC', 'PHP_PHPCSFIXER', 'POWERSHELL_POWERSHELL',
        'POWERSHELL_POWERSHELL_FORMATTER', 'PROTOBUF_PROTOLINT', 'PUPPET_PUPPET_LINT', 'PYTHON_BLACK',
        'PYTHON_FLAKE8', 'PYTHON_ISORT', 'PYTHON_MYPY', 'PYTHON_PYLINT', 'PYTHON_PYRIGHT', 'RAKU_RAKU',
        'REPOSITORY_GIT_DIFF', 'REPOSITORY_LS_LINT', 'REPOSITORY_TRUFFLEHOG', 'RST_RSTCHECK', 'RST_RSTFMT',
        'RST_RST_LINT', 'RUBY_RUBOCOP', 'RUST_CLIPPY', 'R_LINTR', 'SALESFORCE_LIGHTNING_FLOW_SCANNER',
        'SALESFORCE_SFDX_SCANNER_APEX', 'SALESFORCE_SFDX_SCANNER_AURA', 'SALESFORCE_SFDX_SCANNER_LWC',
        'SCALA_SCALAFIX', 'SNAKEMAKE_LINT', 'SNAKEMAKE_SNAKEFMT', 'SPELL_CSPELL', 'SPELL_LYCHEE',
        'SPELL_PROSELINT', 'SPELL_VALE', 'SQL_SQLFLUFF', 'SQL_SQL_LINT', 'SQL_TSQLLINT', 'SWIFT_SWIFTLINT',
        'TEKTON_TEKTON_LINT', 'TERRAFORM_TERRAFORM_FMT', 'TERRAFORM_TERRAGRUNT', 'TYPESCRIPT_PRETTIER',
        'TYPESCRIPT_STANDARD', 'VBDOTNET_DOTNET_FORMAT', 'XML_XMLLINT', 'YAML_PRETTIER', 'YAML_V8R',
        'YAML_YAMLLINT',
    ]),
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

;// CONCATENATED MODULE: ./build/actions/gate/reports/megalinter.js



/** Where MegaLinter mounts the workspace in its container: a path under one is a repository path. */
const CONTAINER_ROOTS = ['/tmp/lint/', '/github/workspace/'];
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
/** A major version from MegaLinter's version texts: `v8`, `v7.10.0`, `8.3.0`, never `latest` or `beta`. */
const VERSION = /^v?(\d+)(?:\.\d+){0,2}$/;
/**
 * The MegaLinter major version that wrote the report: its image's build version (`v6`, `v7.10.0`),
 * else the last path segment of a docs URL (`https://megalinter.io/8.3.0`,
 * `https://oxsecurity.github.io/megalinter/v6.6.0`), the report's own, then its runs'
 * (`…/7.9.0/descriptors/bash_shellcheck`).
 */
function megalinterMajor(log) {
    const image = log.properties?.dockerImage?.buildVersion;
    if (typeof image === 'string' && VERSION.test(image.trim()))
        return Number(VERSION.exec(image.trim())[1]);
    const urls = [log.properties?.docUrl, ...log.runs.map((run) => run.properties?.megalinter?.docUrl)];
    for (const url of urls) {
        if (typeof url !== 'string')
            continue;
        for (const segment of url.split(/[/?#]/)) {
            const match = VERSION.exec(segment);
            if (match)
                return Number(match[1]);
        }
    }
    return undefined;
}
/** A report MegaLinter merged: its comment or image says so, or a run carries a linter key. */
function isMegalinterReport(log) {
    const comment = log.properties?.comment;
    return (typeof comment === 'string' && /MegaLinter/i.test(comment)) || log.properties?.dockerImage !== undefined || log.runs.some((run) => linterKeyOf(run) !== undefined);
}
/** The table of a major version: an older report uses the oldest table, an unknown or newer one the newest. */
function tableFor(major) {
    const versions = Object.keys(NO_SARIF_LINTERS).map(Number).sort((a, b) => a - b);
    const version = major === undefined ? versions.at(-1) : major < versions[0] ? versions[0] : (versions.filter((v) => v <= major).at(-1) ?? versions.at(-1));
    return { version, table: NO_SARIF_LINTERS[version] };
}
/**
 * Enabled linters that cannot reach the merged SARIF: their descriptor lacks `can_output_sarif`,
 * or `SARIF_REPORTER_LINTERS` leaves them out. They are skipped by name, with the reason, and
 * yield no findings.
 */
function skippedLinters(enabled, major, sarifLinters) {
    if (!enabled)
        return [];
    const { version, table } = tableFor(major);
    const skipped = [];
    for (const linter of [...new Set(enabled)].sort()) {
        if (table.has(linter))
            skipped.push({ linter, reason: `MegaLinter v${version} cannot write SARIF for ${linter} (no can_output_sarif in its descriptor)` });
        else if (sarifLinters && !sarifLinters.includes(linter))
            skipped.push({ linter, reason: `SARIF_REPORTER_LINTERS does not list ${linter}, so MegaLinter writes no SARIF for it` });
    }
    return skipped;
}
/**
 * Enabled linters that can write SARIF but have no run in the report. MegaLinter's SARIF reporter
 * merges the runs of each linter's own `sarif/<KEY>.sarif` and silently leaves out one that is
 * missing or is not JSON; it also has no run for a linter that had no file to lint. When the
 * linter's own file is beside the report, it was written but not merged: the reason says so.
 */
function missingLinters(log, sarifPath, enabled, skipped) {
    if (!enabled || !isMegalinterReport(log))
        return [];
    const ran = new Set(log.runs.map(linterKeyOf).filter((k) => k !== undefined));
    const notExpected = new Set(skipped.map((s) => s.linter));
    return [...new Set(enabled)]
        .filter((linter) => !ran.has(linter) && !notExpected.has(linter))
        .sort()
        .map((linter) => {
        const own = (0,external_node_path_namespaceObject.join)((0,external_node_path_namespaceObject.dirname)(sarifPath), 'sarif', `${linter}.sarif`);
        return {
            linter,
            reason: (0,external_node_fs_.existsSync)(own)
                ? `enabled, but its SARIF file sarif/${linter}.sarif beside the report was not merged (MegaLinter leaves out a file it cannot read as JSON)`
                : 'enabled and able to write SARIF, but the report has no run of it (its SARIF file was not written, or it had no file to lint)',
        };
    });
}

;// CONCATENATED MODULE: ./build/actions/gate/reports/locations.js




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
/** A Windows path: a drive letter (`C:\`, `file:///C:/`), as a report written on Windows has. */
const WINDOWS_PATH = /^(?:file:\/*)?[A-Za-z]:[\\/]/i;
/**
 * Whether a run was written on Windows: one of its base URIs or artifacts is a drive-letter path.
 * Its paths may then use `\` as separator throughout.
 */
function writtenOnWindows(run) {
    const bases = Object.values(run.originalUriBaseIds ?? {}).map((b) => b?.uri);
    const artifacts = Array.isArray(run.artifacts) ? run.artifacts.map((a) => a?.location?.uri) : [];
    return [...bases, ...artifacts].some((uri) => typeof uri === 'string' && WINDOWS_PATH.test(uri));
}
/**
 * A SARIF artifact URI decoded to a path: `file://` URIs and `uriBaseId` (`%SRCROOT%` and
 * friends, through `originalUriBaseIds`) resolved, percent-escapes decoded, `\` read as `/` when
 * the run was written on Windows or the path has no `/` at all. The result is an absolute path or
 * a relative one as the tool wrote it (without a leading `./`).
 */
function decodeUri(run, rawUri, uriBaseId, windows) {
    const uri = rawUri.includes('\\') && (windows || !rawUri.includes('/')) ? rawUri.replace(/\\/g, '/') : rawUri;
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
    // A Windows file URL decodes to `/C:/…` here: shown, and stripped, as `C:/…`. A scanner in a
    // container may write `file:////src/app.js` (four slashes): runs of `/` read as one, so
    // `--strip-prefix /src/` matches it.
    // Another scheme (`https://…`, a DAST tool's page) is kept as written, for display.
    if (/^[a-z][a-z0-9+.-]+:/i.test(value))
        return value;
    return value.replace(/\/{2,}/g, '/').replace(/^\/(?=[A-Za-z]:\/)/, '').replace(/^(\.\/)+/, '');
}
function inside(root, path) {
    const rel = (0,external_node_path_namespaceObject.relative)((0,external_node_path_namespaceObject.resolve)(root), path);
    return rel !== '' && !rel.startsWith('..') && !(0,external_node_path_namespaceObject.isAbsolute)(rel) ? rel.split(external_node_path_namespaceObject.sep).join('/') : undefined;
}
/** A relative path read against the given directory, then against the top level. */
function relativeCandidates(path, checkout) {
    const candidates = [];
    for (const [joined, base] of [
        [external_node_path_namespaceObject.posix.normalize(checkout.prefix + path), 'given'],
        [external_node_path_namespaceObject.posix.normalize(path), 'top'],
    ]) {
        if (!joined.startsWith('../') && joined !== '..' && !candidates.some((c) => c.path === joined))
            candidates.push({ path: joined, base });
    }
    return candidates;
}
/**
 * The repository paths (relative to the git top level, as the diff's are) a decoded path may
 * name. An absolute path under the top level or under `--repo` is read from there; MegaLinter's
 * container prefixes (`/tmp/lint/`, `/github/workspace/`: where it mounts the workspace) leave a
 * relative path; any other absolute path is root-relative (scanners that scan at `/` write
 * `/src/app.py`), read against the top level first.
 */
function candidatePaths(written, checkout, stripPrefixes) {
    // `--strip-prefix`: where the scanner saw the repository (a container mount, `../../` from its own directory).
    const prefix = stripPrefixes.find((p) => written.startsWith(p));
    const decoded = prefix ? written.slice(prefix.length) : written;
    for (const root of CONTAINER_ROOTS) {
        if (decoded.startsWith(root))
            return relativeCandidates(decoded.slice(root.length), checkout);
    }
    if (!(0,external_node_path_namespaceObject.isAbsolute)(decoded))
        return relativeCandidates(decoded, checkout);
    const underTop = inside(checkout.topLevel, decoded);
    if (underTop !== undefined)
        return [{ path: underTop, base: 'top' }];
    const underGiven = inside(checkout.directory, decoded);
    if (underGiven !== undefined)
        return [{ path: external_node_path_namespaceObject.posix.normalize(checkout.prefix + underGiven), base: 'given' }];
    return relativeCandidates(decoded.replace(/^\/+/, ''), checkout).reverse();
}
/**
 * The shortest leading part of an unmapped path (as written, decoded) whose removal leaves a file
 * of the head: the directory the scanner saw the repository as (`/Volumes/build/app/`,
 * `C:/github/app/`, `../../path/`), to suggest to `--strip-prefix`. Undefined when no ending of
 * the path names a file of the head.
 */
function strippablePrefix(path, files) {
    for (let slash = path.indexOf('/'); slash >= 0; slash = path.indexOf('/', slash + 1)) {
        if (files.has(path.slice(slash + 1)))
            return path.slice(0, slash + 1);
    }
    return undefined;
}
/**
 * The prefixes `--strip-prefix` names, as compared with decoded paths: `./` dropped, `\` as `/`,
 * ending with `/` (so `/src` strips `/src/app.py` but not `/srcs/app.py`).
 */
function normalisePrefixes(prefixes) {
    return prefixes
        .map((p) => p.trim().replace(/\\/g, '/').replace(/\/{2,}/g, '/').replace(/^(\.\/)+/, ''))
        .filter((p) => p !== '')
        .map((p) => (p.endsWith('/') ? p : `${p}/`));
}
/** What a region without a line says of where it is: an offset, or the text. */
function placeOf(region) {
    const r = region;
    const found = {
        ...(typeof r.charOffset === 'number' && r.charOffset >= 0 ? { charOffset: r.charOffset } : {}),
        ...(typeof r.byteOffset === 'number' && r.byteOffset >= 0 ? { byteOffset: r.byteOffset } : {}),
        ...(typeof r.snippet?.text === 'string' && r.snippet.text.trim() !== '' ? { snippet: r.snippet.text } : {}),
    };
    return Object.keys(found).length > 0 ? { region: found } : {};
}
/**
 * The physical locations of each result of one run, as paths of the head commit. A path
 * that names no file of the head is `unmapped`. When a path exists both under `--repo` and under
 * the top level, the run's other paths decide: the base that more of them were found in, counting
 * the run's `artifacts` list first and the results read so far (the given directory on a tie). A report names the same files over and over, so each distinct
 * URI is resolved once.
 */
class RunLocations {
    run;
    checkout;
    stripPrefixes;
    /**
     * By URI (and base id): the path itself when exactly one candidate names a file of the head, the
     * usual case, else what the candidates say. One string an entry, not four objects: the entries
     * live as long as the run is read, and survivors make V8 grow its young generation.
     */
    resolved = new Map();
    votes = { given: 0, top: 0 };
    windows;
    artifacts;
    toolName;
    constructor(run, checkout, stripPrefixes = []) {
        this.run = run;
        this.checkout = checkout;
        this.stripPrefixes = stripPrefixes;
        this.windows = writtenOnWindows(run);
        this.toolName = run.tool.driver.name ?? 'unknown tool';
        // The run's artifact list, when the tool writes one, votes before any result is read (files
        // nested in others are not files of the repository).
        this.artifacts = Array.isArray(run.artifacts) ? run.artifacts : [];
        for (const artifact of this.artifacts) {
            if (artifact?.parentIndex !== undefined)
                continue;
            const uri = artifact?.location?.uri;
            const baseId = artifact?.location?.uriBaseId;
            if (typeof uri === 'string' && uri)
                this.resolve(uri, typeof baseId === 'string' ? baseId : undefined);
        }
    }
    /** Every location of the result, in its order (tools such as nodejsscan write one result per rule, every match a location). */
    all(result) {
        return (Array.isArray(result.locations) ? result.locations : []).map((l) => this.at(l));
    }
    /** The result's location at this index. */
    nth(result, index) {
        return this.at(Array.isArray(result.locations) ? result.locations[index] : undefined);
    }
    /**
     * The artifact a location names: its own `uri` (and `uriBaseId`), else the `run.artifacts` entry
     * its `index` points at (as the SARIF SDK's converters, Fortify and others write it). An artifact
     * nested in another (`parentIndex`: a file inside an archive) is the outermost one, the file of
     * the repository, and has no line of its own there. An index the run does not have, on a
     * location without its own uri, makes the report unreadable: no answer, never "no location".
     */
    artifactOf(location) {
        const own = typeof location?.uri === 'string' && location.uri ? location.uri : undefined;
        const ownBase = typeof location?.uriBaseId === 'string' ? location.uriBaseId : undefined;
        if (location?.index === undefined)
            return { uri: own, uriBaseId: ownBase, nested: false };
        // A location with its own uri does not need the index: some tools write an index into an
        // artifacts list they leave out (the SARIF JS SDK's ESLint sample).
        if (own && !this.has(location.index))
            return { uri: own, uriBaseId: ownBase, nested: false };
        let artifact = this.artifact(location.index);
        let nested = false;
        for (let depth = 0; typeof artifact.parentIndex === 'number' || typeof artifact.parentIndex === 'string'; depth++) {
            if (depth > this.artifacts.length)
                throw new GateError(`the ${this.toolName} run's artifacts name each other as parents in a loop: the report cannot be read`);
            artifact = this.artifact(artifact.parentIndex);
            nested = true;
        }
        const uri = typeof artifact.location?.uri === 'string' && artifact.location.uri ? artifact.location.uri : undefined;
        const uriBaseId = typeof artifact.location?.uriBaseId === 'string' ? artifact.location.uriBaseId : undefined;
        if (nested)
            return { uri, uriBaseId, nested };
        return { uri: own ?? uri, uriBaseId: ownBase ?? uriBaseId, nested };
    }
    has(index) {
        return Number.isInteger(index) && index >= 0 && typeof this.artifacts[index] === 'object' && this.artifacts[index] !== null;
    }
    artifact(index) {
        const artifact = Number.isInteger(index) && index >= 0 ? this.artifacts[index] : undefined;
        if (!artifact || typeof artifact !== 'object') {
            throw new GateError(`a location of the ${this.toolName} run points at artifacts[${String(index)}], which the run does not have (it lists ${this.artifacts.length}): the report cannot be read, so nothing can be judged`);
        }
        return artifact;
    }
    at(location) {
        const physical = location?.physicalLocation;
        const { uri, uriBaseId, nested } = this.artifactOf(physical?.artifactLocation);
        if (!uri)
            return {};
        const entry = this.resolve(uri, uriBaseId);
        const region = nested ? undefined : physical.region;
        const startLine = typeof region?.startLine === 'number' && region.startLine > 0 ? region.startLine : undefined;
        const placed = startLine === undefined && region ? placeOf(region) : undefined;
        if (typeof entry === 'string')
            return placed ? { path: entry, startLine, written: uri, ...placed } : { path: entry, startLine, written: uri };
        if (entry.existing.length === 0)
            return { path: entry.display, startLine, written: uri, ...placed, unmapped: true, ...(entry.strippable ? { strippable: entry.strippable } : {}) };
        return { path: this.preferred(entry.existing).path, startLine, written: uri, ...placed };
    }
    resolve(uri, baseId) {
        const key = baseId === undefined ? uri : `${String(baseId)}\u0000${uri}`;
        let entry = this.resolved.get(key);
        if (entry === undefined) {
            const decoded = decodeUri(this.run, uri, baseId, this.windows);
            const onHead = (path) => candidatePaths(path, this.checkout, this.stripPrefixes).filter((c) => this.checkout.files.has(c.path));
            let existing = onHead(decoded);
            // Mixed separators (zizmor on Windows writes `.github/workflows\ci.yml`): read as `/` when
            // that names a file of the head and the path as written does not.
            if (existing.length === 0 && decoded.includes('\\'))
                existing = onHead(decoded.replace(/\\/g, '/'));
            // A file whose name holds what looks like a percent-escape (`100%25.txt` written as
            // `100%.txt`, or a file really named `a%20b.js`): read as written when decoding names no file.
            if (existing.length === 0 && /%[0-9A-Fa-f]{2}/.test(uri))
                existing = onHead(decodeUri(this.run, uri.replace(/%/g, '%25'), baseId, this.windows));
            if (existing.length === 1)
                this.votes[existing[0].base]++;
            if (existing.length === 1)
                entry = existing[0].path;
            else if (existing.length > 1)
                entry = { existing, display: decoded };
            else {
                // Shown as the scanner wrote it (an absolute path keeps its leading `/`), `\` read as `/`.
                const shown = decoded.replace(/\\/g, '/');
                const strippable = strippablePrefix(shown, this.checkout.files);
                entry = { existing, display: shown, ...(strippable ? { strippable } : {}) };
            }
            this.resolved.set(key, entry);
        }
        return entry;
    }
    preferred(existing) {
        const base = this.votes.top > this.votes.given ? 'top' : 'given';
        return existing.find((c) => c.base === base) ?? existing[0];
    }
}

;// CONCATENATED MODULE: ./build/actions/gate/reports/regions.js
/*
 * Regions without a line (SARIF §3.30): a character or byte offset into the file, or only the
 * text (`snippet`). The line is read off the head's file, so the diff can judge it like any
 * other; a snippet found more than once (or not at all) places nothing.
 */
/** The line (1-based) at an offset of `text`: in UTF-16 code units for a string (`columnKind: utf16CodeUnits`; code points differ only past the Basic Multilingual Plane), in bytes for the file's UTF-8 bytes; undefined past the end. */
function lineAtOffset(text, offset) {
    if (offset > text.length)
        return undefined;
    let line = 1;
    for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1))
        line++;
    return line;
}
/** The line where the snippet starts, when it occurs exactly once (line endings aside). */
function lineOfSnippet(text, snippet) {
    for (const [haystack, needle] of [
        [text, snippet],
        [text.replace(/\r\n/g, '\n'), snippet.replace(/\r\n/g, '\n')],
    ]) {
        const at = haystack.indexOf(needle);
        if (at < 0)
            continue;
        if (haystack.indexOf(needle, at + 1) >= 0)
            return undefined;
        return lineAtOffset(haystack, at);
    }
    return undefined;
}
class RegionLines {
    files;
    head;
    constructor(files, head) {
        this.files = files;
        this.head = head;
    }
    /** The location with its line read off the head's file, when its region gives an offset or a snippet instead of a line. */
    placed(location) {
        const region = location.region;
        if (location.startLine !== undefined || !region || !location.path || location.unmapped)
            return location;
        const text = this.files.text(this.head, location.path);
        if (text === undefined)
            return location;
        const line = region.charOffset !== undefined ? lineAtOffset(text, region.charOffset) : region.byteOffset !== undefined ? lineAtOffset(Buffer.from(text, 'utf8'), region.byteOffset) : region.snippet !== undefined ? lineOfSnippet(text, region.snippet) : undefined;
        return line === undefined ? location : { ...location, startLine: line };
    }
}

;// CONCATENATED MODULE: ./build/actions/gate/reports/sarif.js


/** What JSON.parse says is wrong, without its quote of the text: a report may hold secrets. */
function jsonProblem(err) {
    if (err.message.includes('Unexpected end of JSON input'))
        return 'unexpected end of the JSON text';
    const at = /at position (\d+)/.exec(err.message)?.[1];
    return at === undefined ? 'invalid JSON' : `invalid JSON at character ${at}`;
}
/** Whether a run computed its results: SARIF §3.14.23, `results` null or absent means none were (as after a tool error). */
const computed = (run) => Array.isArray(run.results);
/** A run's results; none for a run that computed none. */
const resultsOf = (run) => (Array.isArray(run.results) ? run.results : []);
/**
 * Reads a SARIF file whole with JSON.parse and checks that it is a SARIF log with a `runs` array
 * whose runs each have a `tool.driver`. Anything else is a tool error (exit 2). A UTF-8
 * byte-order mark, which some Windows tools write, is accepted.
 */
function readSarif(path) {
    let log;
    try {
        log = JSON.parse((0,external_node_fs_.readFileSync)(path, 'utf8').replace(/^\uFEFF/, ''));
    }
    catch (err) {
        if (err instanceof SyntaxError)
            throw new GateError(`${path} is not JSON, so not a SARIF report (${jsonProblem(err)})`);
        const code = err.code;
        if (code)
            throw new GateError(`cannot read the SARIF report ${path}: ${code}`);
        throw err;
    }
    const runs = log?.runs;
    if (!log || typeof log !== 'object' || !Array.isArray(runs))
        throw new GateError(`${path} is not a SARIF 2.1.0 report (no "runs" array)`);
    for (const run of runs) {
        const driver = run?.tool?.driver;
        if (!driver || typeof driver !== 'object')
            throw new GateError(`${path} has a run without tool.driver`);
    }
    return log;
}

;// CONCATENATED MODULE: ./build/actions/gate/rules/secrets.js



/**
 * "Secret-like" is decided from what the report says, so that a scanner the gate has never heard
 * of is covered when it describes its findings the usual way:
 * - the tool: its driver name or MegaLinter key names a secret scanner, or says "secret";
 * - the rule: its id, name or short description speaks of secrets, passwords, credentials, API,
 *   access or private keys, or high-entropy strings (checkov `CKV_SECRET_*`,
 *   KICS "Passwords And Secrets - …", Semgrep `….secrets.…`, CodeQL `…/hardcoded-credentials`);
 * - tags (`properties.tags` of the rule or the result) or `properties.category` saying so, or
 *   naming CWE-798, 259, 260 or 321 (hard-coded credentials, passwords and keys) — Trivy tags its
 *   secret rules `secret`, Semgrep and CodeQL tag the CWE;
 * - a rule's relationship to one of those CWEs (KICS links each rule to its CWE taxon).
 */
const SECRET_TOOL = /secret|gitleaks|trufflehog|ggshield|nosey-?parker|talisman|whispers|kingfisher/i;
// "hard-coded" alone is not enough: bandit's hardcoded_tmp_directory is no secret.
const SECRET_WORDS = /secret|passw(?:or)?d|credential|api[-_ ]?key|access[-_ ]?key|private[-_ ]?key|high[-_ ]?entropy/i;
const SECRET_CWE = /\bcwe[-_/ ]?0*(?:798|259|260|321)\b/i;
const secrets_text = (value) => (typeof value === 'string' ? value : '');
const says = (value) => SECRET_WORDS.test(secrets_text(value)) || SECRET_CWE.test(secrets_text(value));
function propertiesSay(properties) {
    if (!properties)
        return false;
    const tags = properties.tags;
    return (Array.isArray(tags) && tags.some(says)) || says(properties.category);
}
function ruleSays(rule) {
    const description = rule.shortDescription?.text;
    if ([rule.id, rule.name, description].some((v) => SECRET_WORDS.test(secrets_text(v))))
        return true;
    if (propertiesSay(rule.properties))
        return true;
    const relationships = Array.isArray(rule.relationships) ? rule.relationships : [];
    return relationships.some((r) => /^cwe$/i.test(secrets_text(r.target?.toolComponent?.name)) && SECRET_CWE.test(`CWE-${secrets_text(r.target?.id)}`));
}
/** Whether one run's results are secret-like; each rule (by index and id) is judged once. */
class SecretLike {
    run;
    tool;
    /** Verdicts by `ruleIndex` (a number) or rule id (a string), or a composite key for `rule` references. */
    rules = new Map();
    constructor(run, linterKey) {
        this.run = run;
        this.tool = SECRET_TOOL.test(run.tool.driver.name ?? '') || SECRET_TOOL.test(linterKey ?? '');
    }
    test(result) {
        if (this.tool)
            return true;
        if (propertiesSay(result.properties))
            return true;
        const id = secrets_text(result.ruleId ?? result.rule?.id);
        // Called for every result: the common shapes (a ruleIndex, or only a ruleId) build no key.
        const key = result.rule
            ? `\0${result.rule.toolComponent?.index ?? ''}/${result.rule.index ?? result.ruleIndex ?? ''}/${id}`
            : typeof result.ruleIndex === 'number'
                ? result.ruleIndex
                : id;
        let verdict = this.rules.get(key);
        if (verdict === undefined) {
            const rule = ruleOf(this.run, result);
            verdict = SECRET_WORDS.test(id) || (rule !== undefined && ruleSays(rule));
            this.rules.set(key, verdict);
        }
        return verdict;
    }
}
const BASE64 = '[A-Za-z0-9+/=]';
/** One SOPS value: AES256-GCM data, IV, tag and type. */
const SOPS_VALUE = new RegExp(`ENC\\[AES256_GCM,data:${BASE64}*,iv:${BASE64}+,tag:${BASE64}+,type:[a-z]+\\]`, 'g');
/**
 * A line that holds a SOPS value and nothing else but its key and punctuation: `key: ENC[…]`,
 * `- ENC[…]`, `#ENC[…]` (an encrypted comment), `"key": "ENC[…]",`, `KEY=ENC[…]`, `key = ENC[…]`.
 */
const ONLY_VALUE = /^\s*(?:-\s+)?(?:#\s*)?(?:(?:"[^"]*"|'[^']*'|[^\s"'#:=][^"'#:=]*?)\s*[:=]\s*)?(?:"\0"|'\0'|\0)\s*,?\s*$/;
/** ISO 8601 (YAML, dotenv) or seconds since the epoch (older JSON files). */
const TIMESTAMP = /^(?:\d{4}-\d\d-\d\dT[\d:.]+(?:Z|[+-]\d\d:\d\d)|\d+(?:\.\d+)?)$/;
/** An armour header such as `Version: GnuPG v1`. */
const ARMOUR_HEADER = '[A-Za-z-]+: [^\\\\]*?';
/** A SOPS file's own metadata (the `sops:` block): what each key may hold. */
const METADATA = {
    mac: /^ENC\[AES256_GCM,[^\]]*\]$/,
    lastmodified: TIMESTAMP,
    created_at: TIMESTAMP,
    fp: /^[A-Fa-f0-9]{16,40}$/,
    recipient: /^age1[0-9a-z]{20,}$/,
    arn: /^arn:aws[\w-]*:kms:[\w-]+:\d+:(?:key|alias)\/[\w/-]+$/,
    resource_id: /^projects\/[\w-]+\/locations\/[\w-]+\/keyRings\/[\w-]+\/cryptoKeys\/[\w-]+$/,
    version: /^[\w.]+$/,
    // The data key encrypted to a recipient: an armoured block, KMS base64, or Vault's ciphertext.
    enc: new RegExp(`^(?:[|>][-+]?|${BASE64}{16,}|vault:v\\d+:${BASE64}+|-----BEGIN [A-Z ]+-----(?:\\\\n(?:${ARMOUR_HEADER}|${BASE64}*))+\\\\n-----END [A-Z ]+-----(?:\\\\n)?)$`),
};
/** A line of an armoured block (`enc: |`): its header, base64 body, checksum, or a blank line. */
const ARMOUR_LINE = new RegExp(`^\\s*(?:-----(?:BEGIN|END) [A-Z ]+-----|${ARMOUR_HEADER}|${BASE64}*)\\s*$`);
/** `key: value`, `"key": "value",`, `key = value`, `key=value`, the key without dotenv/INI nesting. */
function keyValue(line) {
    const match = /^\s*(?:-\s+)?(?:"([\w.-]+)"|([\w.-]+))\s*[:=]\s*(.*?)\s*,?\s*$/.exec(line);
    if (!match)
        return undefined;
    const key = (match[1] ?? match[2]).replace(/^sops_/, '').replace(/^.*__map_/, '');
    const value = match[3].replace(/^(["'])(.*)\1$/, '$2');
    return { key, value };
}
/**
 * Line numbers (1-based) of a SOPS file's metadata that hold only key material: the encrypted
 * data keys of every recipient (armoured PGP or age blocks, KMS and Vault ciphertexts), the MAC,
 * fingerprints, age recipients, KMS ARNs, timestamps, the format version. The block is `sops:` in YAML, `"sops": {`
 * in JSON, `[sops]` in INI, and the `sops_` keys of a dotenv file. Anything else in it (a key the
 * list does not know, a value of the wrong shape) is not metadata and still gates.
 */
function sopsMetadataLines(lines) {
    const found = new Set();
    let block;
    let jsonIndent = '';
    let armourIndent = -1;
    lines.forEach((line, i) => {
        if (armourIndent >= 0) {
            const indent = /^\s*/.exec(line)[0].length;
            if ((indent > armourIndent || line.trim() === '') && ARMOUR_LINE.test(line)) {
                found.add(i + 1);
                return;
            }
            armourIndent = -1;
        }
        if (block === 'yaml' && /^[^\s#]/.test(line))
            block = undefined;
        else if (block === 'json' && line.startsWith(`${jsonIndent}}`))
            block = undefined;
        else if (block === 'ini' && /^\s*\[/.test(line))
            block = undefined;
        if (/^sops:\s*$/.test(line))
            block = 'yaml';
        else if (/^(\s*)"sops":\s*\{\s*$/.test(line))
            [block, jsonIndent] = ['json', /^\s*/.exec(line)[0]];
        else if (/^\s*\[sops\]\s*$/.test(line))
            block = 'ini';
        if (!block && !/^sops_\w+=/.test(line))
            return;
        const pair = keyValue(line);
        if (!pair || !METADATA[pair.key]?.test(pair.value))
            return;
        found.add(i + 1);
        if (block === 'yaml' && pair.key === 'enc' && /^[|>]/.test(pair.value))
            armourIndent = /^\s*/.exec(line)[0].length;
    });
    return found;
}
/**
 * Whether a finding's line in the working-tree file holds only SOPS ciphertext: a SOPS value
 * alone on its line, or a SOPS file's key-material metadata (`sopsMetadataLines`). The SARIF snippet is never
 * trusted (scanners redact it); the file is read instead, once.
 */
class SopsDetector {
    root;
    files = new Map();
    /** `root`: the directory the locations' paths are relative to (the git top level). */
    constructor(root) {
        this.root = root;
    }
    /** `location`: a mapped one (classify never asks about a path the head does not have). */
    isEncrypted(location) {
        if (!location.path || location.startLine === undefined)
            return false;
        const file = this.file(location.path);
        if (!file)
            return false;
        // The finding's own line only: a plaintext secret on a neighbouring line still gates.
        const line = file.lines[location.startLine - 1];
        if (line === undefined)
            return false;
        const masked = line.replace(SOPS_VALUE, '\0');
        if (masked !== line && ONLY_VALUE.test(masked))
            return true;
        file.metadata ??= sopsMetadataLines(file.lines);
        return file.metadata.has(location.startLine);
    }
    file(path) {
        let file = this.files.get(path);
        if (file === undefined) {
            file = null;
            try {
                if (!path.startsWith('/') && !path.split('/').includes('..')) {
                    const content = (0,external_node_fs_.readFileSync)((0,external_node_path_namespaceObject.join)(this.root, path), 'utf8');
                    // Only files that hold a SOPS value can hold SOPS ciphertext: the rest are not kept.
                    if (content.includes('ENC[AES256_GCM,'))
                        file = { lines: content.split(/\r?\n/) };
                }
            }
            catch {
                file = null;
            }
            this.files.set(path, file);
        }
        return file;
    }
}

;// CONCATENATED MODULE: ./build/actions/gate/rules/fixed-versions.js
/*
 * The versions a dependency finding's own report says fix it, as each scanner writes them, and a
 * comparison of package versions good enough to tell "below the fix" across ecosystems (semver,
 * PEP 440, Debian and Alpine revisions).
 */
const fixed_versions_text = (value) => (typeof value === 'string' ? value : '');
/** A comma- or space-separated list of versions, as "Fixed Version: 4.5.13, 5.0.3"; none for "None" or nothing. */
function versionList(list) {
    return list
        .split(/[,\s]+/)
        .map((v) => v.trim())
        .filter((v) => /^v?\d/.test(v));
}
/**
 * The fixed versions a result's report names: Trivy's `Fixed Version:` (in the message, or the
 * rule's help in its older template), grype's `Fix Version:` (the rule's help), Snyk's
 * "Upgrade `name` to version X or higher" (the rule's help), osv-scanner's "Fixed Versions" table
 * (the rule's help: `| id | package | version |`). Empty when the report names none.
 */
function fixedVersionsOf(result, rule, packageNames) {
    const help = rule?.help;
    const texts = [fixed_versions_text(result.message?.text), fixed_versions_text(help?.text), fixed_versions_text(help?.markdown)];
    const found = [];
    for (const t of texts) {
        for (const m of t.matchAll(/^\s*(?:Fixed Version|Fix Version)s?: *(.*)$/gim))
            found.push(...versionList(m[1]));
        for (const m of t.matchAll(/Upgrade `([^`]+)` to version (\S+?) or higher/g)) {
            if (packageNames.some((n) => sameName(n, m[1])))
                found.push(...versionList(m[2]));
        }
        const table = /#+\s*Fixed Versions?\s*\n([\s\S]*?)(?:\n#|\n\s*\n(?!\|)|$)/i.exec(t)?.[1];
        if (table) {
            for (const row of table.split('\n')) {
                const cells = row.split('|').map((c) => c.trim()).filter(Boolean);
                if (cells.length >= 3 && packageNames.some((n) => sameName(n, cells[1])))
                    found.push(...versionList(cells[2]));
            }
        }
    }
    return [...new Set(found)];
}
function sameName(a, b) {
    const norm = (s) => s.toLowerCase().replace(/[-_.]+/g, '-');
    return norm(a) === norm(b) || norm(a).endsWith(`/${norm(b)}`) || norm(b).endsWith(`/${norm(a)}`);
}
/** A version's parts: an epoch, then runs of digits and of letters, separators dropped (`1:1.2.3-r4` → [1, 1, 2, 3, 'r', 4]). */
function partsOf(version) {
    const v = version.trim().replace(/^v(?=\d)/i, '');
    const epoch = /^(\d+):/.exec(v);
    const rest = epoch ? v.slice(epoch[0].length) : v;
    return [Number(epoch?.[1] ?? 0), ...[...rest.matchAll(/\d+|[A-Za-z]+/g)].map((m) => (/^\d/.test(m[0]) ? Number(m[0]) : m[0].toLowerCase()))];
}
/**
 * Orders two versions: numbers numerically, words alphabetically, a number after a word; a version
 * that goes on with a word after the other ends is a pre-release of it (`1.0.0-rc1` < `1.0.0`),
 * one that goes on with a number is later (`1.0` < `1.0.1`).
 */
function compareVersions(a, b) {
    const x = partsOf(a);
    const y = partsOf(b);
    for (let i = 0; i < Math.max(x.length, y.length); i++) {
        const p = x[i];
        const q = y[i];
        if (p === undefined)
            return typeof q === 'string' ? 1 : -1;
        if (q === undefined)
            return typeof p === 'string' ? -1 : 1;
        if (p === q)
            continue;
        if (typeof p === 'number' && typeof q === 'number')
            return p - q;
        if (typeof p === 'string' && typeof q === 'string')
            return p < q ? -1 : 1;
        return typeof p === 'number' ? 1 : -1;
    }
    return 0;
}
/** A version's major: its first number after the epoch. */
function majorOf(version) {
    return partsOf(version)[1];
}
/**
 * The fix `version` is below, when it is below the fix: the fixed version of its own release line
 * (the same major, when the report names fixes for several lines), else below every fixed version
 * (then the lowest). Undefined when it is not below the fix.
 */
function fixAbove(version, fixed) {
    if (fixed.length === 0)
        return undefined;
    const line = fixed.filter((f) => majorOf(f) === majorOf(version));
    const relevant = line.length > 0 ? line : fixed;
    if (!relevant.every((f) => compareVersions(version, f) < 0))
        return undefined;
    return [...relevant].sort(compareVersions)[0];
}
/** Whether `version` is below the fix (see `fixAbove`). */
function belowFix(version, fixed) {
    return fixAbove(version, fixed) !== undefined;
}

;// CONCATENATED MODULE: ./build/actions/gate/rules/classify.js










/** What a result without a line in a changed file, naming no package, counts as. */
const UNATTRIBUTED = ['net-new', 'pre-existing'];
const UNMAPPED_EXAMPLES = 5;
const NET_NEW = { kind: 'net-new' };
const UNATTRIBUTED_VERDICT = { kind: 'unattributed' };
const UNCHANGED_LINE = { kind: 'unchanged-line' };
/** Ranks up to this one count as net-new; the others as pre-existing. */
const LAST_NET_NEW_RANK = 1;
/** Which location of a result decides it, best first: net-new, then what counts as net-new, then the reasons a result is pre-existing. */
function verdictRank(verdict, unattributedNetNew) {
    switch (verdict.kind) {
        case 'net-new':
            return 0;
        case 'unattributed':
            return unattributedNetNew ? 1 : 2;
        case 'moved':
            return 3;
        case 'still-affected':
            return 4;
        default:
            return 5;
    }
}
/**
 * The bump that stays below the fix, when the merge-base had the package at a version the report
 * says is affected. Of several such versions (the lines near the package's name can hold others'),
 * the highest is shown: the one the bump started from.
 */
function stillAffected(changes, path, pkg, fixed) {
    const affected = changes.dependencies
        .baseVersions(path, pkg)
        .flatMap((base) => {
        const fix = fixAbove(base, fixed);
        return fix === undefined ? [] : [{ base, fix }];
    })
        .sort((a, b) => compareVersions(b.base, a.base));
    const [first] = affected;
    if (!first)
        return undefined;
    const head = pkg.version;
    return { package: pkg.names[0], baseVersion: first.base, headVersion: head, fixedVersion: first.fix, crossesMajor: head !== undefined && majorOf(head) !== majorOf(first.base) };
}
/**
 * Net-new: the file is new in the pull request, or the result's start line is an added line;
 * either way not when that line only moved (its text, whitespace normalised, was removed
 * elsewhere in the diff). Results naming a package, and results without a line, have rules of
 * their own below.
 */
function verdictOf(changes, packageOnce, location, fixedVersions) {
    const { diff, dependencies, images } = changes;
    const path = location.path;
    const added = diff.files.get(path);
    const line = location.startLine;
    // Only a result in a changed file is asked which package it names (the reason says which rule
    // would have judged it, so a file the pull request left alone is asked only when it is a
    // Dockerfile, a manifest or a lockfile's line 1).
    if (added === undefined) {
        if (isContainerfile(path)) {
            const pkg = packageOnce();
            if (pkg)
                return { kind: 'image-unchanged', pkg };
        }
        return UNCHANGED_LINE;
    }
    const onAdded = line !== undefined && (added === 'all' || added.has(line));
    const from = line === undefined ? undefined : diff.moved.get(path)?.get(line);
    const pkg = packageOnce();
    // An image's packages are put on its Dockerfile (line 1, or the FROM line): the image decides.
    // New when the pull request changed what the image is built from, or named the package on an
    // added line (an instruction that installs it).
    if (pkg && isContainerfile(path))
        return changes.baseline || images.baseChanged(path) || dependencies.introduces(path, { names: pkg.names }) ? NET_NEW : { kind: 'image-unchanged', pkg };
    // Dependency scanners put a lockfile's findings on line 1 or on no line: the package decides.
    // A real line (past 1) that is added still counts, so a result misread as naming a package is
    // never passed by it.
    if (pkg) {
        if (dependencies.introduces(path, pkg)) {
            // A bump that stays below the fix the report names brings nothing new: the version at the
            // merge-base was affected too. With a baseline report that one decides, exactly (see `classify`).
            if (changes.baseline)
                return NET_NEW;
            const fixed = pkg.version ? fixedVersions() : [];
            const bump = fixed.length > 0 ? stillAffected(changes, path, pkg, fixed) : undefined;
            return bump ? { kind: 'still-affected', bump } : NET_NEW;
        }
        return line !== undefined && line > 1 && onAdded && from === undefined ? NET_NEW : { kind: 'package-unchanged', pkg };
    }
    // Line 1 of a lockfile is where scanners put what has no line.
    if (line === undefined || (line === 1 && isLockfile(path)))
        return added === 'all' ? NET_NEW : UNATTRIBUTED_VERDICT;
    if (!onAdded)
        return UNCHANGED_LINE;
    return from ? { kind: 'moved', from } : NET_NEW;
}
/** The suppression that holds: the first not rejected nor under review. */
function suppressionOf(result) {
    return (Array.isArray(result.suppressions) ? result.suppressions : []).find((s) => s?.status !== 'rejected' && s?.status !== 'underReview');
}
/** Not a finding of this run (SARIF §3.27.9, §3.27.24): the tool says it is gone, or that the check passed or did not apply. */
function notAFinding(result) {
    return result.baselineState === 'absent' || result.kind === 'pass' || result.kind === 'notApplicable' || result.kind === 'informational';
}
/** The first line of a finding's message; empty when its result has none. */
function messageOf(finding) {
    const text = finding.result.message?.text;
    return typeof text === 'string' ? text.split('\n', 1)[0] : '';
}
/** The paths of the result's locations that name files of the head (for the few net-new results a baseline is asked about). */
function mappedPaths(locations, result) {
    return locations.all(result).flatMap((l) => (l.path && !l.unmapped ? [l.path] : []));
}
/** The reason a not-net-new location verdict gives, and what it carries. */
function reasonOf(verdict) {
    switch (verdict.kind) {
        case 'moved':
            return { reason: 'moved', detail: { movedFrom: verdict.from } };
        case 'still-affected':
            return { reason: 'bump-still-vulnerable', detail: { bump: verdict.bump } };
        case 'image-unchanged':
        case 'package-unchanged':
            return { reason: verdict.kind, detail: { package: verdict.pkg.names[0], version: verdict.pkg.version } };
        case 'unattributed':
            return { reason: 'unattributed' };
        default:
            return { reason: 'unchanged-line' };
    }
}
/** Sorts every result of the report into exactly one bucket; each that is not net-new gets its reason. */
function classify(log, diff, options) {
    const netNew = [];
    const notCounted = [];
    let total = 0;
    let preExisting = 0;
    let suppressed = 0;
    let sopsIgnored = 0;
    let noLocation = 0;
    let noLocationBlocking = 0;
    let notFindings = 0;
    let unmapped = 0;
    const unmappedExamples = [];
    let strippable;
    let moved = 0;
    let unattributed = 0;
    // One reader of the commits' files for every rule: a Dockerfile is read once for images and packages alike.
    const files = new CommitFiles(options.checkout.topLevel);
    const regions = new RegionLines(files, diff.head);
    const changes = {
        diff,
        dependencies: new DependencyChanges(diff, files),
        images: new ImageChanges(diff, files),
        baseline: options.baseline !== undefined,
    };
    let baselineMatched = 0;
    let stillAffected = 0;
    const unattributedNetNew = (options.unattributed ?? 'net-new') === 'net-new';
    log.runs.forEach((run, runIndex) => {
        const linter = linterKeyOf(run);
        if (linter && options.skippedLinters.has(linter))
            return;
        const secretLike = new SecretLike(run, linter);
        const tool = linter ?? run.tool.driver.name ?? 'unknown tool';
        const runLocations = new RunLocations(run, options.checkout, options.stripPrefixes);
        resultsOf(run).forEach((result, index) => {
            total++;
            // The rule is a lookup by index or in the run's map of ids: read once for every result, as
            // every result is either a finding or an entry of "not counted", both of which show it.
            const rule = ruleOf(run, result);
            const ruleId = ruleIdOf(run, result, rule);
            const severity = severityOf(run, result, rule);
            const drop = (reason, path, line, detail) => notCounted.push({ reason, runIndex, index, result, tool, ruleId, severity, path, line, detail });
            if (notAFinding(result)) {
                notFindings++;
                drop('not-a-finding', undefined, undefined, { kind: result.kind, baselineState: result.baselineState });
                return;
            }
            const suppression = suppressionOf(result);
            if (suppression) {
                suppressed++;
                const first = runLocations.nth(result, 0);
                drop('suppressed', first.path, first.startLine, { suppression: { kind: suppression.kind, status: suppression.status, justification: suppression.justification } });
                return;
            }
            // Every location counts: a result is net-new when any of its locations is. Read one at a
            // time, without arrays: most results have one location, and millions may be read.
            const count = Array.isArray(result.locations) ? result.locations.length : 0;
            let pkg = null;
            const pkgOnce = () => (pkg === null ? (pkg = packageOf(result, rule)) : pkg);
            let fixed;
            const fixedVersions = () => (fixed ??= fixedVersionsOf(result, rule, pkgOnce()?.names ?? []));
            let secret;
            let located = false;
            let firstUnmapped;
            let firstSops;
            let mappedAny = false;
            let best;
            for (let at = 0; at < Math.max(count, 1); at++) {
                let location = runLocations.nth(result, at);
                if (!location.path)
                    continue;
                located = true;
                if (location.unmapped) {
                    firstUnmapped ??= location;
                    continue;
                }
                mappedAny = true;
                location = regions.placed(location);
                if ((secret ??= secretLike.test(result)) && options.sops.isEncrypted(location)) {
                    firstSops ??= location;
                    continue;
                }
                const verdict = verdictOf(changes, pkgOnce, location, fixedVersions);
                const rank = verdictRank(verdict, unattributedNetNew);
                if (!best || rank < best.rank)
                    best = { verdict, location, at, rank };
                if (rank === 0)
                    break;
            }
            const finding = (path, startLine, at) => ({
                runIndex,
                index,
                result,
                locationIndex: at,
                tool,
                ruleId,
                path,
                startLine,
                severity,
                blocking: blocks(severity, options.failOn),
            });
            if (!located) {
                // No file to judge by: the baseline decides when there is one; else it is not judged, and
                // one that would block is no answer (ci.ts), never a pass.
                const match = options.baseline?.match(run, result, []);
                if (match) {
                    baselineMatched++;
                    preExisting++;
                    drop('baseline', undefined, undefined, { baseline: match });
                }
                else if (options.baseline) {
                    netNew.push(finding('', undefined, 0));
                }
                else {
                    noLocation++;
                    if (blocks(severity, options.failOn))
                        noLocationBlocking++;
                    drop('no-location');
                }
                return;
            }
            if (!mappedAny) {
                unmapped++;
                const path = firstUnmapped.path;
                if (unmappedExamples.length < UNMAPPED_EXAMPLES && !unmappedExamples.includes(path))
                    unmappedExamples.push(path);
                strippable ??= firstUnmapped.strippable;
                drop('unmapped', path, firstUnmapped.startLine, { pathAsWritten: firstUnmapped.written ?? path });
                return;
            }
            if (!best) {
                sopsIgnored++;
                drop('sops-encrypted', firstSops?.path, firstSops?.startLine);
                return;
            }
            const { verdict, location, at } = best;
            if (verdict.kind === 'unattributed')
                unattributed++;
            if (verdict.kind === 'moved')
                moved++;
            if (verdict.kind === 'still-affected')
                stillAffected++;
            if (best.rank > LAST_NET_NEW_RANK) {
                preExisting++;
                const { reason, detail } = reasonOf(verdict);
                drop(reason, location.path, location.startLine, detail);
                return;
            }
            const match = options.baseline?.match(run, result, mappedPaths(runLocations, result));
            if (match) {
                baselineMatched++;
                preExisting++;
                drop('baseline', location.path, location.startLine, { baseline: match });
                return;
            }
            netNew.push(finding(location.path, location.startLine, at));
        });
    });
    return {
        total,
        netNew,
        preExisting,
        suppressed,
        sopsIgnored,
        noLocation,
        unmapped,
        unmappedExamples,
        ...(strippable ? { strippable } : {}),
        moved,
        unattributed,
        baselineMatched,
        stillAffected,
        notFindings,
        noLocationBlocking,
        notCounted,
    };
}

;// CONCATENATED MODULE: ./build/actions/gate/args.js







const DEFAULT_SARIF = 'megalinter-reports/megalinter-report.sarif';
/** `gate --help`: the commands; each command's options are in its own `--help`. */
const USAGE = `Usage: gate <command> [options]

Commands:
  ci                      classify a SARIF report's findings as net-new or pre-existing
                          and fail only on net-new ones (gate ci --help lists its options)

Options:
  --version               print the version
  --help                  this text`;
/** `gate ci --help`: the options of ci only. */
const CI_USAGE = `Usage: gate ci [options]

Classifies SARIF findings as net-new (introduced by the pull request, since the merge-base of
base and head) or pre-existing, and fails only on net-new ones.

Options:
  --sarif <path>          SARIF report (default ${DEFAULT_SARIF})
  --base <sha|ref>        base of the pull request (default: the pull-request event's base sha)
  --head <sha|ref>        head of the pull request (default HEAD)
  --repo <path>           repository working tree (default: the current directory)
  --fail-on <severity>    critical | high | medium | low | any | none (default high)
  --strict                skipped or missing linters, failed tool runs, a stale report and
                          unknown enabled linters are errors (exit 2)
  --filtered-out <path>   write the net-new-only SARIF here
  --counts-json <path>    write the counts document here
  --linters <keys>        enabled MegaLinter linter keys, comma-separated
                          (default: ENABLE_LINTERS, else MegaLinter's configuration file:
                          MEGALINTER_CONFIG, .mega-linter.yml and the like, .github/ too)
  --unattributed-dependency <net-new|pre-existing>
                          a finding without a line in a changed file that names no
                          package (default net-new)
  --baseline-sarif <path> the report of the base commit (for example the last run on the
                          default branch): a finding it also holds is pre-existing
  --strip-prefix <prefix> remove this leading prefix from the report's paths before they
                          are mapped to the checkout (repeatable; for example ../../ or /src/)
  --help                  this text
  --version               print the version

Exit codes: 0 no blocking net-new findings; 1 blocked; 2 no answer (setup or tool error,
for example a shallow clone: check out with fetch-depth: 0).`;
/** The pull-request event's base commit, when the workflow runs on one. */
function eventBase(event) {
    const sha = event.payload.pull_request?.base?.sha;
    return typeof sha === 'string' && sha ? sha : undefined;
}
/** Parses `gate <command> [options]`; a usage problem is a `GateError` (exit 2). */
function parseCommand(argv, cwd, naming = 'flag', event = NO_EVENT) {
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
                'unattributed-dependency': { type: 'string' },
                'baseline-sarif': { type: 'string' },
                'strip-prefix': { type: 'string', multiple: true },
                help: { type: 'boolean', short: 'h' },
                version: { type: 'boolean' },
            },
        });
    }
    catch (err) {
        throw new GateUsageError(err.message, argv[0] === 'ci' ? CI_USAGE : USAGE);
    }
    const { values, positionals } = parsed;
    if (values.version)
        return { kind: 'version' };
    const isCi = positionals[0] === 'ci' && positionals.length === 1;
    if (values.help || positionals.length === 0)
        return { kind: 'help', text: isCi ? CI_USAGE : USAGE };
    if (!isCi)
        throw new GateUsageError(`unknown command "${positionals.join(' ')}"`, USAGE);
    const failOn = (values['fail-on'] ?? 'high').toLowerCase();
    if (!FAIL_ON.includes(failOn))
        throw new GateError(`${optionName('fail-on', naming)} must be one of ${FAIL_ON.join(', ')}`);
    // Left out when not given: classify holds the default.
    const unattributed = values['unattributed-dependency']?.toLowerCase();
    if (unattributed !== undefined && !UNATTRIBUTED.includes(unattributed)) {
        throw new GateError(`${optionName('unattributed-dependency', naming)} must be one of ${UNATTRIBUTED.join(', ')}`);
    }
    const base = values.base ?? eventBase(event);
    if (!base)
        throw new GateError(`no ${naming === 'input' ? 'base input' : '--base'} given and no pull-request event to read it from`);
    const stripPrefixes = normalisePrefixes(values['strip-prefix'] ?? []);
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
            ...(unattributed !== undefined ? { unattributed: unattributed } : {}),
            ...(values['baseline-sarif'] ? { baselineSarif: (0,external_node_path_namespaceObject.resolve)(cwd, values['baseline-sarif']) } : {}),
            ...(stripPrefixes.length > 0 ? { stripPrefixes } : {}),
            naming,
        },
    };
}

;// CONCATENATED MODULE: ./build/actions/gate/rules/baseline.js





function logicalNames(result) {
    const names = [];
    for (const location of Array.isArray(result.locations) ? result.locations : []) {
        for (const logical of location.logicalLocations ?? []) {
            const name = logical?.fullyQualifiedName ?? logical?.name;
            if (typeof name === 'string' && name)
                names.push(name);
        }
    }
    return names;
}
/** The keys a result is known by: one per fingerprint, one per package location, and for a result without a file its logical locations or message; none for the rest. */
function keysOf(run, result, paths) {
    const rule = ruleIdOf(run, result) ?? '';
    const tool = run.tool.driver.name ?? '';
    // A result without a file is known at no path.
    const at = paths.length > 0 ? paths : [''];
    const keys = [];
    for (const kind of ['fingerprints', 'partialFingerprints']) {
        const prints = result[kind];
        if (!prints || typeof prints !== 'object')
            continue;
        for (const [name, value] of Object.entries(prints)) {
            if (typeof value !== 'string' || value === '')
                continue;
            // With the path: a line hash (CodeQL's primaryLocationLineHash) is the same for one line of code in two files.
            const fingerprint = `${kind}/${name}=${value}`;
            for (const path of at)
                keys.push({ key: `${tool}\u0000${rule}\u0000${path}\u0000${fingerprint}`, fingerprint, path });
        }
    }
    if (keys.length > 0)
        return keys;
    if (paths.length > 0) {
        const pkg = packageOf(result, ruleOf(run, result));
        const fingerprint = pkg && `package:${pkg.names[0].toLowerCase()}`;
        if (fingerprint)
            for (const path of paths)
                keys.push({ key: `${tool}\u0000${rule}\u0000${path}\u0000${fingerprint}`, fingerprint, path });
        return keys;
    }
    for (const name of logicalNames(result))
        keys.push({ key: `${tool}\u0000${rule}\u0000\u0000logical:${name}`, fingerprint: `logical:${name}`, path: '' });
    const text = result.message?.text;
    if (keys.length === 0 && typeof text === 'string' && text)
        keys.push({ key: `${tool}\u0000${rule}\u0000\u0000message:${text}`, fingerprint: 'message', path: '' });
    return keys;
}
class Baseline {
    keys;
    constructor(keys) {
        this.keys = keys;
    }
    /** Reads the baseline report once, keeping its results' keys and what each names. */
    static open(path, checkout, stripPrefixes = []) {
        let log;
        try {
            log = readSarif(path);
        }
        catch (err) {
            if (err instanceof GateError)
                throw new GateError(`the baseline report cannot be used: ${err.message}`);
            throw err;
        }
        const keys = new Map();
        for (const run of log.runs) {
            const locations = new RunLocations(run, checkout, stripPrefixes);
            for (const result of resultsOf(run)) {
                // A file since deleted at head is still the same path.
                const located = locations.all(result).filter((l) => l.path);
                const paths = located.map((l) => l.path);
                const rule = ruleIdOf(run, result);
                for (const { key, fingerprint, path: at } of keysOf(run, result, paths)) {
                    if (!keys.has(key))
                        keys.set(key, { rule, path: at || undefined, line: located.find((l) => l.path === at)?.startLine, fingerprint });
                }
            }
        }
        return new Baseline(keys);
    }
    /** The baseline's result this one matches (at any of the given paths; none for a result without a file), if any. */
    match(run, result, paths) {
        for (const { key } of keysOf(run, result, paths)) {
            const found = this.keys.get(key);
            if (found)
                return found;
        }
        return undefined;
    }
}

;// CONCATENATED MODULE: ./build/actions/shared/git.js

/** git gave no answer: it could not be started at all (not installed, not on PATH), or did not finish within the caller's bound. */
class GitUnavailable extends Error {
    name = 'GitUnavailable';
}
/**
 * Runs `git [-C <dir>] <args>` to its end. A non-zero exit is a result, not an error: to some
 * callers it means "no" (not tracked, not a commit, nothing to unset), to others a failure they
 * word themselves. Only a git that cannot be started, or outlives `timeoutMs`, rejects (`GitUnavailable`).
 */
function git(dir, args, options = {}) {
    return new Promise((resolve, reject) => {
        const { timeoutMs } = options;
        const child = (0,external_node_child_process_namespaceObject.spawn)('git', [...(dir === undefined ? [] : ['-C', dir]), ...args], {
            stdio: ['ignore', 'pipe', 'pipe'],
            ...(timeoutMs === undefined ? {} : { signal: AbortSignal.timeout(timeoutMs), killSignal: 'SIGKILL' }),
        });
        const chunks = [];
        let stderr = '';
        child.stdout.on('data', (d) => chunks.push(d));
        child.stderr.on('data', (d) => (stderr += d.toString()));
        child.on('error', (err) => reject(new GitUnavailable(err.name === 'AbortError' ? `git did not finish within ${(timeoutMs ?? 0) / 1000} s` : `cannot run git: ${err.message}`)));
        child.on('close', (code) => resolve({ code: code ?? 1, stdout: Buffer.concat(chunks), stderr }));
    });
}
/** The output as trimmed text: for commands that print one name or hash. */
function gitText(result) {
    return result.stdout.toString('utf8').trim();
}

;// CONCATENATED MODULE: ./build/actions/gate/diff/git.js



/** `git -C <repo> <args>` (`shared/git.ts`); a git that cannot be started is no answer (a `GateError`). */
async function git_git(repo, args) {
    try {
        return await git(repo, args);
    }
    catch (err) {
        throw err instanceof GitUnavailable ? new GateError(err.message) : err;
    }
}

;// CONCATENATED MODULE: ./build/actions/gate/diff/checkout.js


/** A git command's standard output as bytes; a failure is a `GateError` naming the command. */
async function gitOutput(repo, args) {
    const { code, stdout, stderr } = await git_git(repo, args);
    if (code !== 0)
        throw new GateError(`git ${args[0]} failed: ${stderr.trim()}`);
    return stdout;
}
/**
 * The checkout the report is judged against. The head's file list is one `git ls-tree` into a
 * set (about a hundred bytes a file): whether a report's path names a file of the repository is
 * then a lookup, however many results name it. `--full-tree` lists from the top level even when
 * `directory` is a subdirectory. The two git commands run together; `workTree` settles as soon as
 * the quick one has answered, for callers that need only the top level.
 */
function checkoutOf(directory, head) {
    const workTree = gitOutput(directory, ['rev-parse', '--show-toplevel', '--show-prefix']).then((where) => {
        const [topLevel = '', prefix = ''] = where.toString('utf8').split('\n');
        return { topLevel, directory, prefix };
    });
    const listing = gitOutput(directory, ['ls-tree', '-r', '-z', '--full-tree', '--name-only', head]);
    // The listing's own failure must not go unhandled while the work tree's is awaited first.
    listing.catch(() => { });
    const checkout = workTree.then(async (tree) => {
        const bytes = await listing;
        const files = new Set();
        let start = 0;
        for (let end; (end = bytes.indexOf(0, start)) >= 0; start = end + 1)
            files.add(bytes.toString('utf8', start, end));
        return { ...tree, files };
    });
    return { workTree, checkout };
}

;// CONCATENATED MODULE: external "node:fs/promises"
const promises_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs/promises");
;// CONCATENATED MODULE: external "node:os"
const external_node_os_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:os");
;// CONCATENATED MODULE: ./build/actions/gate/diff/parse-diff.js

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
/** The end of a quoted name that starts at `from` (the index after its closing quote). */
function quotedEnd(text, from) {
    for (let i = from + 1; i < text.length; i++) {
        if (text[i] === '\\')
            i++;
        else if (text[i] === '"')
            return i + 1;
    }
    return -1;
}
/**
 * The path of a `diff --git a/<p> b/<p>` line whose two names are the same (an added, deleted or
 * changed file, not a rename): the prefixes are the gate's own (`a/`, `b/`), so the line splits
 * unambiguously even when the name holds spaces. Undefined when the names differ.
 */
function samePathOf(header) {
    const names = header.slice('diff --git '.length);
    if (names.startsWith('"')) {
        const end = quotedEnd(names, 0);
        if (end < 0 || names[end] !== ' ')
            return undefined;
        const [a, b] = [unquotePath(names.slice(0, end)), unquotePath(names.slice(end + 1))];
        return a.startsWith('a/') && b.startsWith('b/') && a.slice(2) === b.slice(2) ? b.slice(2) : undefined;
    }
    if (names.length % 2 === 0)
        return undefined;
    const half = (names.length - 1) / 2;
    const [a, b] = [names.slice(0, half), names.slice(half + 1)];
    return names[half] === ' ' && a.startsWith('a/') && b.startsWith('b/') && a.slice(2) === b.slice(2) ? b.slice(2) : undefined;
}
/** A name of a `---`/`+++` line without its prefix (`a/` or `b/`, the gate's own); undefined for /dev/null. */
function diffName(raw, prefix) {
    // git ends the name with a tab when it holds a space; a real tab in a name is quoted.
    const name = raw.replace(/\t$/, '');
    if (name === '/dev/null')
        return undefined;
    const path = unquotePath(name);
    if (!path.startsWith(prefix))
        throw new GateError(`git diff wrote a name without the prefix the gate asked for (${prefix}): the diff cannot be read`);
    return path.slice(prefix.length);
}
/**
 * A diff line's text as moved code is recognised by: leading and trailing whitespace (CR included)
 * dropped, inner runs counted as one space. So `\tfoo(a,  b)\r` and `foo(a, b)` match, and
 * `foo(a,b)` does not. Undefined for a line without a letter, a digit or a non-ASCII character:
 * blank lines and lone brackets say nothing about where code came from.
 */
function movableText(line) {
    if (!/[A-Za-z0-9\u0080-\uffff]/.test(line))
        return undefined;
    return normalisedLine(line.slice(1));
}
/** A line's text with leading and trailing whitespace dropped and inner runs counted as one space. */
function normalisedLine(text) {
    // One pass of a regular expression, then at most one space at each end: this runs for every
    // added and removed line of the diff, and a second pass cost a large diff's parse about 40 %.
    const spaced = text.replace(/[ \t\r\v\f]+/g, ' ');
    const from = spaced.startsWith(' ') ? 1 : 0;
    const to = spaced.length > from && spaced.endsWith(' ') ? spaced.length - 1 : spaced.length;
    return spaced.slice(from, to);
}
const HUNK = /^@@@* -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;
/**
 * `git diff` output (with the gate's prefixes `a/` and `b/`): the added lines of each file by its
 * head path, and which of them only moved (their text, as `movableText`, is a removed line
 * anywhere in the diff), with the first merge-base line they repeat. Added lines are read from the
 * `+` lines themselves, never from a hunk header's counts, so context lines (a `GIT_DIFF_OPTS` or
 * `diff.interHunkContext` the gate did not ask for) are never taken for added ones. A file whose
 * header has no `+++` line (an empty or binary new file, a binary change) is registered from its
 * header: a new one is new whatever its content.
 */
function parseDiff(output) {
    const files = new Map();
    const binary = [];
    /** Removed text → the first merge-base place it was removed from (path index × 2^32 + line). */
    const removed = new Map();
    const oldPaths = [];
    /** Every meaningful added line: its path, line number and text, until every removed line is known. */
    const added = [];
    let header;
    let current;
    let path;
    let oldIndex = -1;
    let nextNew = 0;
    let nextOld = 0;
    /** Registers a file whose header ended without a `+++` line. */
    const endHeader = () => {
        if (!header || header.deleted)
            return;
        const target = header.renameTo ?? header.newPath ?? samePathOf(header.line);
        if (target === undefined)
            throw new GateError(`git diff wrote a header the gate cannot read (${JSON.stringify(header.line.slice(0, 200))}): the diff cannot be read`);
        if (header.newFile)
            files.set(target, 'all');
        else if (header.binary) {
            files.set(target, 'all');
            binary.push({ path: target, from: header.renameFrom ?? target });
        }
        // Otherwise a mode change or a pure rename: no line changed.
    };
    for (const line of output.split('\n')) {
        if (line.startsWith('diff --git ')) {
            if (header)
                endHeader();
            header = { line, newFile: false, deleted: false, binary: false };
            current = path = undefined;
        }
        else if (line.startsWith('@@')) {
            // A header that goes on into hunks had its `+++` line; "+++ x" from here on is an added line.
            header = undefined;
            const match = HUNK.exec(line);
            if (!match)
                continue;
            nextOld = Number(match[1]);
            nextNew = Number(match[2]);
        }
        else if (header) {
            if (line.startsWith('new file mode'))
                header.newFile = true;
            else if (line.startsWith('deleted file mode'))
                header.deleted = true;
            else if (line.startsWith('rename from ') || line.startsWith('copy from '))
                header.renameFrom = unquotePath(line.slice(line.indexOf(' from ') + 6));
            else if (line.startsWith('rename to ') || line.startsWith('copy to '))
                header.renameTo = unquotePath(line.slice(line.indexOf(' to ') + 4));
            else if (line.startsWith('Binary files ') || line === 'GIT binary patch')
                header.binary = true;
            else if (line.startsWith('--- ')) {
                const old = diffName(line.slice(4), 'a/');
                oldIndex = old === undefined ? -1 : oldPaths.push(old) - 1;
            }
            else if (line.startsWith('+++ ')) {
                const target = diffName(line.slice(4), 'b/');
                if (target === undefined) {
                    header.deleted = true;
                    continue;
                }
                path = header.newPath = target;
                current = header.newFile ? undefined : new Set();
                files.set(path, current ?? 'all');
            }
        }
        else if (line !== '') {
            // A hunk's line: added, removed, context, or git's "\ No newline" marker.
            const kind = line[0];
            if (kind === '+') {
                const at = nextNew++;
                current?.add(at);
                const text = movableText(line);
                if (text !== undefined && path !== undefined)
                    added.push({ path, line: at, text });
            }
            else if (kind === '-') {
                const at = nextOld++;
                const text = movableText(line);
                if (text !== undefined && oldIndex >= 0 && !removed.has(text))
                    removed.set(text, oldIndex * 2 ** 32 + at);
            }
            else if (kind === ' ') {
                nextNew++;
                nextOld++;
            }
        }
    }
    if (header)
        endHeader();
    const moved = new Map();
    for (const { path, line, text } of added) {
        const from = removed.get(text);
        if (from === undefined)
            continue;
        let lines = moved.get(path);
        if (!lines)
            moved.set(path, (lines = new Map()));
        lines.set(line, { path: oldPaths[Math.floor(from / 2 ** 32)], line: from % 2 ** 32 });
    }
    return { files, moved, binary };
}

;// CONCATENATED MODULE: ./build/actions/gate/diff/git-diff.js








const RENAME_LIMIT = 20_000;
const FETCH_DEPTH = 'check out with full history (actions/checkout with fetch-depth: 0)';
async function commitOf(repo, ref, what) {
    const found = await git_git(repo, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
    if (found.code !== 0)
        throw new GateError(`the ${what} ${ref} is not reachable in this clone; ${FETCH_DEPTH}`);
    return gitText(found);
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
        // The merge-base is asked for beside the checks, from the same names (one git process less
        // on the way to `git diff`); its answer counts only once they passed.
        const [shallow, baseCommit, headCommit, mergeBase] = await Promise.all([
            git_git(repo, ['rev-parse', '--is-shallow-repository']),
            commitOf(repo, base, 'base').catch((err) => err),
            commitOf(repo, head, 'head').catch((err) => err),
            git_git(repo, ['merge-base', `${base}^{commit}`, `${head}^{commit}`]),
        ]);
        if (shallow.code !== 0)
            throw new GateError(`${repo} is not a git repository: ${shallow.stderr.trim()}`);
        if (gitText(shallow) === 'true') {
            throw new GateError(`this is a shallow clone, so the merge-base cannot be found; ${FETCH_DEPTH}`);
        }
        if (typeof baseCommit !== 'string')
            throw baseCommit;
        if (typeof headCommit !== 'string')
            throw headCommit;
        const mergeBaseCommit = gitText(mergeBase);
        if (mergeBase.code !== 0 || !mergeBaseCommit) {
            // Not a shallow clone (checked above), so the two histories share no commit at all.
            throw new GateError(`${base} and ${head} share no commit (no merge-base): the base's history was rewritten (force-pushed) after the pull request branched, or the two branches are unrelated; ` +
                'rebase the pull request onto the current base, or give the commit it branched from as the base');
        }
        const { files, moved } = await addedLines(repo, mergeBaseCommit, headCommit, onRunning);
        return { mergeBase: mergeBaseCommit, head: headCommit, files, moved };
    }
    finally {
        onRunning();
    }
}
/**
 * The diff's options, every one explicit so that no configuration of the user's (or the runner's)
 * changes which lines count as added: prefixes `a/` and `b/` whatever `diff.noprefix`,
 * `diff.mnemonicPrefix` or `diff.srcPrefix` say; paths from the top level whatever
 * `diff.relative`; no external diff program, text conversion or colour; git's default algorithm,
 * no context lines and no hunks merged over unchanged lines (`diff.algorithm`,
 * `diff.interHunkContext`); submodules as one line. A rename limit far above git's default of 1000:
 * past the limit git silently treats renames as new files, which would make every finding in them
 * net-new. Deleted files are read too: their removed lines are code that may have moved elsewhere.
 */
const DIFF_OPTIONS = [
    '--no-color',
    '--no-ext-diff',
    '--no-textconv',
    '--no-relative',
    '--src-prefix=a/',
    '--dst-prefix=b/',
    '--diff-algorithm=myers',
    '--indent-heuristic',
    '--unified=0',
    '--inter-hunk-context=0',
    '--submodule=short',
    '--find-renames',
    `-l${RENAME_LIMIT}`,
    '--diff-filter=ACDMRT',
];
/** The environment git runs in, without the variables that change a diff behind its options (`GIT_DIFF_OPTS` overrides `--unified`). */
function diffEnvironment() {
    const { GIT_DIFF_OPTS: _opts, GIT_EXTERNAL_DIFF: _external, ...env } = process.env;
    return env;
}
/** Runs `git diff` with the gate's options into `output`; its standard error when it worked. */
async function runDiff(repo, args, output, onRunning) {
    const child = (0,external_node_child_process_namespaceObject.spawn)('git', ['-C', repo, '-c', 'core.quotePath=false', 'diff', ...DIFF_OPTIONS, `--output=${output}`, ...args], {
        stdio: ['ignore', 'ignore', 'pipe'],
        env: diffEnvironment(),
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d.toString()));
    const code = await new Promise((resolve, reject) => {
        child.on('error', (err) => reject(new GateError(`cannot run git: ${err.message}`)));
        child.on('close', (c) => resolve(c ?? 1));
        onRunning();
    });
    if (code !== 0)
        throw new GateError(`git diff failed: ${stderr.trim()}`);
    return stderr;
}
/** Reads a diff git wrote; past V8's longest string (about 512 MiB) it cannot be read: no answer, never a guess. */
async function readDiff(output) {
    const text = await (0,promises_namespaceObject.readFile)(output, 'utf8').catch((err) => {
        throw new GateError(`cannot read the output of git diff: ${err.code ?? err.message}`);
    });
    return parseDiff(text);
}
/**
 * Of the changed files git called binary, those it called so only because `.gitattributes` says
 * `-diff` (or `binary`), as repositories often mark lockfiles: their text can be read line by
 * line. A file binary by its content (a NUL byte, git's own test) stays binary.
 */
async function binaryByAttribute(repo, paths) {
    if (paths.length === 0)
        return new Set();
    const found = await git_git(repo, ['check-attr', '-z', 'diff', '--', ...paths]);
    const fields = found.stdout.toString('utf8').split('\0');
    const unset = new Set();
    // -z: path, attribute, value, for each path.
    for (let i = 0; i + 2 < fields.length; i += 3)
        if (fields[i + 2] === 'unset')
            unset.add(fields[i]);
    return unset;
}
/**
 * Runs `git diff` into a temporary file rather than a pipe: a pipe would stop git as soon as it
 * filled while this process is busy reading the report, and the two are meant to overlap. A
 * changed file git calls binary has unknown lines, so all of it counts as changed; one that is
 * binary only by `.gitattributes` is read again as text (`--text`), lines and all.
 */
async function addedLines(repo, from, to, onRunning) {
    const dir = await (0,promises_namespaceObject.mkdtemp)((0,external_node_path_namespaceObject.join)((0,external_node_os_namespaceObject.tmpdir)(), 'gatehouse-gate-diff-'));
    try {
        const output = (0,external_node_path_namespaceObject.join)(dir, 'diff');
        const stderr = await runDiff(repo, [from, to], output, onRunning);
        if (/rename detection was skipped/i.test(stderr)) {
            throw new GateError(`the pull request renames more files than rename detection can pair (limit ${RENAME_LIMIT}); renamed files cannot be told from new ones`);
        }
        const parsed = await readDiff(output);
        if (parsed.binary.length === 0)
            return { files: parsed.files, moved: parsed.moved };
        // The diff's paths are the top level's: attributes are asked, and the diff run again, there.
        const top = gitText(await git_git(repo, ['rev-parse', '--show-toplevel']));
        const asText = await binaryByAttribute(top, parsed.binary.map((b) => b.path));
        const again = parsed.binary.filter((b) => asText.has(b.path));
        if (again.length > 0) {
            const textOutput = (0,external_node_path_namespaceObject.join)(dir, 'text-diff');
            await runDiff(top, ['--text', from, to, '--', ...new Set(again.flatMap((b) => [b.from, b.path]))], textOutput, () => { });
            const text = await readDiff(textOutput);
            for (const { path } of again) {
                const lines = text.files.get(path);
                if (lines === undefined)
                    parsed.files.delete(path);
                else
                    parsed.files.set(path, lines);
                const moved = text.moved.get(path);
                if (moved)
                    parsed.moved.set(path, moved);
            }
        }
        return { files: parsed.files, moved: parsed.moved };
    }
    finally {
        await (0,promises_namespaceObject.rm)(dir, { recursive: true, force: true });
    }
}

;// CONCATENATED MODULE: ./build/actions/gate/reports/megalinter-config.js



/** MegaLinter's own default names, in its order (config.py), then the same names under `.github/`. */
const ROOT_NAMES = ['.mega-linter.yml', '.megalinter.yml', '.mega-linter.yaml', '.megalinter.yaml'];
const CANDIDATES = [...ROOT_NAMES, ...ROOT_NAMES.map((name) => `.github/${name}`)];
class ConfigProblem extends Error {
}
/**
 * A MegaLinter list setting: a YAML list, a comma-separated string, or a JSON array in a string
 * (config.py's `get_list`). Only linter-key-shaped entries are kept.
 */
function keysFrom(value) {
    let list = [];
    if (Array.isArray(value))
        list = value;
    else if (typeof value === 'string' && value.trim().startsWith('[')) {
        try {
            const parsed = JSON.parse(value);
            if (Array.isArray(parsed))
                list = parsed;
        }
        catch {
            list = value.split(',');
        }
    }
    else if (typeof value === 'string')
        list = value.split(',');
    return list.map((k) => String(k).trim()).filter((k) => /^[A-Z0-9_]+$/.test(k));
}
const isUrl = (value) => /^https?:\/\//i.test(value);
/** A URL without credentials or query, so a token in it never reaches the summary. */
function shownUrl(value) {
    try {
        const url = new URL(value);
        return `${url.origin}${url.pathname}`;
    }
    catch {
        return 'a URL';
    }
}
const isFile = (path) => (0,external_node_fs_.existsSync)(path) && (0,external_node_fs_.statSync)(path).isFile();
/**
 * The configuration file MegaLinter reads for this repository. `MEGALINTER_CONFIG` first, as
 * config.py resolves it: a URL (never fetched here: a problem), a path that exists as given, else
 * a path inside the workspace (MegaLinter's container roots are mapped to the repository). Without
 * it, MegaLinter's default names at the root; then, as the gate's own fallback, the same names
 * under `.github/` (MegaLinter reads those only through MEGALINTER_CONFIG, which is usually set on
 * MegaLinter's step alone and so is not seen by the gate's).
 */
function configFile(env, repo) {
    const named = env.MEGALINTER_CONFIG?.trim();
    if (named) {
        if (isUrl(named))
            throw new ConfigProblem(`MEGALINTER_CONFIG is a URL (${shownUrl(named)}), which the gate does not fetch`);
        const root = CONTAINER_ROOTS.find((r) => named.startsWith(r));
        const candidates = (0,external_node_path_namespaceObject.isAbsolute)(named) ? [named, ...(root ? [(0,external_node_path_namespaceObject.join)(repo, named.slice(root.length))] : [])] : [(0,external_node_path_namespaceObject.join)(repo, named)];
        const found = candidates.find(isFile);
        if (!found)
            throw new ConfigProblem(`MEGALINTER_CONFIG names ${named}, which is not a file of this checkout`);
        return found;
    }
    return CANDIDATES.map((name) => (0,external_node_path_namespaceObject.join)(repo, name)).find(isFile);
}
/** Later values win; keys named in CONFIG_PROPERTIES_TO_APPEND join lists instead (config.py's merge_dicts). */
function merge(into, from, append) {
    for (const [key, value] of Object.entries(from)) {
        const before = into[key];
        into[key] = Array.isArray(before) && Array.isArray(value) && append.includes(key) ? [...before, ...value] : value;
    }
}
/**
 * A configuration with its local `EXTENDS` applied: each extended file (a path in the workspace)
 * first, in order, with its own `EXTENDS` applied the same way, then the file itself on top. A
 * remote `EXTENDS` (a URL) is not fetched: a problem, since it may set the linters.
 */
function withExtends(config, repo, parse, seen) {
    if (config.EXTENDS === undefined)
        return config;
    const items = Array.isArray(config.EXTENDS) ? config.EXTENDS.map(String) : String(config.EXTENDS).split(',');
    const append = keysFrom(config.CONFIG_PROPERTIES_TO_APPEND);
    const combined = {};
    for (const item of items.map((i) => i.trim()).filter(Boolean)) {
        if (isUrl(item))
            throw new ConfigProblem(`EXTENDS names a URL (${shownUrl(item)}), which the gate does not fetch`);
        const file = (0,external_node_path_namespaceObject.resolve)(repo, item);
        if (seen.has(file))
            throw new ConfigProblem(`EXTENDS of ${item} loops back to a file already read`);
        merge(combined, withExtends(readConfig(file, repo, parse), repo, parse, new Set([...seen, file])), append);
    }
    merge(combined, config, append);
    return combined;
}
function readConfig(file, repo, parse) {
    const name = (0,external_node_path_namespaceObject.relative)(repo, file) || file;
    let text;
    try {
        text = (0,external_node_fs_.readFileSync)(file, 'utf8');
    }
    catch (err) {
        throw new ConfigProblem(`the MegaLinter configuration ${name} cannot be read (${err.code ?? 'unreadable'})`);
    }
    let value;
    try {
        value = parse(text);
    }
    catch {
        // The parser's message quotes the text, which may hold a secret: only say where.
        throw new ConfigProblem(`the MegaLinter configuration ${name} cannot be read (not valid YAML)`);
    }
    if (value === null || value === undefined)
        return {};
    if (typeof value !== 'object' || Array.isArray(value))
        throw new ConfigProblem(`the MegaLinter configuration ${name} is not a mapping`);
    return value;
}
/**
 * The enabled linters and the SARIF reporter's list, as MegaLinter settles them: `--linters`
 * (the gate's own option) first; else each setting from the environment, which wins over the
 * file in MegaLinter too, else from the configuration file with its local EXTENDS. The YAML
 * parser is loaded only when a file is read: it is most of the gate's code, and most runs never
 * need it.
 */
async function megalinterSettings(option, env, repo) {
    if (option !== undefined)
        return { enabled: keysFrom(option), source: '--linters' };
    const fromEnv = (key) => (env[key]?.trim() ? keysFrom(env[key]) : undefined);
    const enabledEnv = fromEnv('ENABLE_LINTERS');
    const sarifEnv = fromEnv('SARIF_REPORTER_LINTERS');
    const envSettings = {
        ...(enabledEnv ? { enabled: enabledEnv, source: 'ENABLE_LINTERS' } : {}),
        ...(sarifEnv ? { sarifLinters: sarifEnv } : {}),
    };
    if (enabledEnv && sarifEnv)
        return envSettings;
    let file;
    let config;
    try {
        file = configFile(env, repo);
        if (!file)
            return envSettings;
        const { parse } = await __nccwpck_require__.e(/* import() | yaml */ 602).then(__nccwpck_require__.t.bind(__nccwpck_require__, 8815, 19));
        // As PyYAML reads it for MegaLinter: a repeated key takes the last value, `<<` merges.
        const parseYaml = (text) => parse(text, { uniqueKeys: false, merge: true });
        config = withExtends(readConfig(file, repo, parseYaml), repo, parseYaml, new Set([(0,external_node_path_namespaceObject.resolve)(file)]));
    }
    catch (err) {
        if (!(err instanceof ConfigProblem))
            throw err;
        // What the environment says still holds; only the file's part is unknown.
        return { ...envSettings, problem: err.message };
    }
    const source = (0,external_node_path_namespaceObject.relative)(repo, file).startsWith('..') ? file : (0,external_node_path_namespaceObject.relative)(repo, file);
    const enabled = enabledEnv ?? (config.ENABLE_LINTERS !== undefined ? keysFrom(config.ENABLE_LINTERS) : undefined);
    const sarifLinters = sarifEnv ?? (config.SARIF_REPORTER_LINTERS !== undefined ? keysFrom(config.SARIF_REPORTER_LINTERS) : undefined);
    return {
        ...(enabled ? { enabled, source: enabledEnv ? 'ENABLE_LINTERS' : source } : {}),
        ...(sarifLinters ? { sarifLinters } : {}),
    };
}

;// CONCATENATED MODULE: ./build/actions/gate/rules/not-counted.js
/*
 * "Not counted, and why": every result of the report that is not net-new carries exactly one
 * reason, the rule that dropped it, with what a reviewer needs to check that rule in seconds.
 */
/** The reasons, in the order the summary lists them. */
const not_counted_REASONS = [
    'unchanged-line',
    'moved',
    'baseline',
    'bump-still-vulnerable',
    'image-unchanged',
    'package-unchanged',
    'suppressed',
    'unmapped',
    'unattributed',
    'no-location',
    'sops-encrypted',
    'not-a-finding',
];
/** What the summary says each reason means, in one line. */
const not_counted_REASON_TEXT = {
    'unchanged-line': 'on a line the pull request did not add or change (or in a file it did not change)',
    moved: 'on an added line whose text was removed elsewhere in the diff: the code moved, was re-indented or changed line endings',
    baseline: 'the base commit\'s report (--baseline-sarif) holds the same result',
    'bump-still-vulnerable': 'the pull request changed the package\'s version, but the merge-base version was already below the fixed version the report names',
    'image-unchanged': 'a package of a container image whose Dockerfile\'s FROM lines (and the ARGs they read) the pull request did not change',
    'package-unchanged': 'a package that no added line of the changed manifest or lockfile names (at its version)',
    suppressed: 'suppressed in the report (an accepted suppression)',
    unmapped: 'its file is not a file of the head commit, so it was not judged',
    unattributed: 'no line in a changed file and no package named: pre-existing because unattributed-dependency is pre-existing',
    'no-location': 'no file location (logical locations only, or none), below the threshold, so it cannot block',
    'sops-encrypted': 'a secret finding on a line that holds only SOPS ciphertext',
    'not-a-finding': 'not a finding of this run: the tool says it is gone (baselineState absent) or that the check passed or did not apply (kind pass, notApplicable, informational)',
};

;// CONCATENATED MODULE: ./build/server/http/control-characters.js
/**
 * The server's one "no control character" rule (`/sign` paths and branch, ledger text and links).
 *
 * Refused: Unicode general category Cc, which is C0 (U+0000–U+001F), DEL (U+007F) and C1
 * (U+0080–U+009F: NEL U+0085 breaks lines, CSI U+009B starts terminal escape sequences); and the
 * line and paragraph separators, categories Zl and Zp (U+2028, U+2029), which break a line like
 * `\n` does (Unicode line breaking and JavaScript both treat them as line terminators). A line
 * break inside one field of a chat message or log line is what this rule exists to prevent.
 *
 * Allowed: format characters (Cf: bidi controls, zero-width joiners, soft hyphen). Ordinary text
 * needs them (emoji sequences, Persian and Indic names, mixed-direction text) and they break no
 * line; refusing them would be a different rule about how text displays.
 */
const CONTROL = /[\p{Cc}\p{Zl}\p{Zp}]/u;
const CONTROL_RUNS = new RegExp(`${CONTROL.source}+`, 'gu');
/** Whether `s` holds a control character in the sense above. One class, no quantifier: linear. */
const hasControlCharacter = (s) => CONTROL.test(s);
/** `s` with each run of control characters in the sense above made one space: text for one line. */
const control_characters_spaceControlCharacters = (s) => s.replace(CONTROL_RUNS, ' ');

;// CONCATENATED MODULE: ./build/server/markdown.js
/**
 * Data as Markdown text: the one place that decides how text the product did not write (a
 * scanner's message, a file name, an environment name, a product name, an error a peer sent)
 * goes into the Markdown GitHub renders (job summaries, pull-request and review comments, issue
 * bodies) or into text GitHub links up (issue titles).
 *
 * What data must not do there: make HTML (`<img>` is a tracking pixel, `<details>` hides text,
 * raw HTML restyles the page), mention anyone (`@user`, `@org/team` notify), cross-reference an
 * issue (`#123`, `owner/repo#123` leave a "mentioned this" on it), make a link or an image of its
 * own, or break the surrounding structure (a `|` ends a table cell, a line break ends the block,
 * a backtick opens a code span). What it may still do: show every character it holds. So:
 * - `<`, `>`, `&` become character references: GitHub shows them, and no tag can form;
 * - a zero-width space goes after each `@` and `#`, and inside `GH-` before a number: shown the
 *   same, but no mention or reference;
 * - `\`, `` ` ``, `|`, `[`, `]`, `!` get a backslash: shown as themselves, with no code span,
 *   cell boundary, link or image (`!` too, so that a `!` of the data cannot turn a link the
 *   product keeps into an image);
 * - line breaks (and the other control characters) become spaces: inline text stays inline.
 * Emphasis characters (`*`, `_`, `~`) are left alone: at most they make text bold or struck,
 * and escaping them would make rule ids and `snake_case` names harder to search for. At the
 * start of the text, what would open a block (`- `, `1. `, `***`, `~~~`) is escaped too, since the
 * product puts data at the start of a line (a review comment's message). A bare URL still becomes
 * a link (GitHub links them, and one to an issue still references it).
 */

const MARKDOWN_PUNCTUATION = /[\\`|[\]!]/g;
const REFERENCES = { '<': '&lt;', '>': '&gt;', '&': '&amp;' };
/** Text GitHub renders as it is (an issue title): no mention, no issue reference, one line. */
const plainText = (data) => spaceControlCharacters(data)
    .replace(/[@#]/g, '$&\u200b')
    .replace(/(gh)-(?=\d)/gi, '$1\u200b-');
/** Each character of `data` as itself: nothing it holds builds HTML, a mention, a link or a span. */
const escaped = (data) => plainText(data)
    .replace(MARKDOWN_PUNCTUATION, '\\$&')
    .replace(/[<>&]/g, (c) => REFERENCES[c]);
/**
 * Inline Markdown made safe at the start of a line, where the product puts data (a review
 * comment's message): what would open a block instead (a list, a rule, a fence, an indented code
 * block) has its marker escaped; the leading spaces, which HTML does not show, are dropped.
 */
const atLineStart = (markdown) => markdown
    .replace(/^\s+/, '')
    // A bullet, a rule (`***`, `- - -`, `___`), a `~~~` fence, a setext underline.
    .replace(/^([-+*](?=\s|$)|([-*_])(?=[ \t]*\2[ \t]*\2)|~(?=~~)|=(?==*[ \t]*$))/, '\\$1')
    // An ordered list's `1.` or `1)`.
    .replace(/^(\d{1,9})([.)])(?=\s|$)/, '$1\\$2');
/** Data as inline Markdown text, in a paragraph, a heading, a list item or a table cell: shown as it is, doing nothing. */
const markdown_inlineText = (data) => atLineStart(escaped(data));
/**
 * Data as a code span (a path, a rule id, a component), outside a table: a fence of backticks
 * longer than any run inside, so the span cannot end early. Inside a code span nothing renders
 * (no HTML, no mention), so nothing else is escaped.
 */
function codeSpan(data) {
    const text = spaceControlCharacters(data);
    const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
    const fence = '`'.repeat(longest + 1);
    // A space each side keeps a backtick at either end from joining the fence, and a space of the
    // data at either end from being stripped: CommonMark strips one space each side when both have one.
    const pad = /^[` ]|[` ]$/.test(text) || text === '' ? ' ' : '';
    return `${fence}${pad}${text}${pad}${fence}`;
}
/**
 * A code span inside a table cell: GitHub splits the row at every `|` not escaped by a
 * backslash, code spans included, and reads `\\` as an escaped backslash first. So each `|`
 * gets a backslash and the data's backslashes right before it are doubled: the cell holds, and
 * such a backslash shows twice (a code span cannot show `\|` in a cell otherwise).
 */
const codeSpanInCell = (data) => codeSpan(data).replace(/(\\*)\|/g, (_, slashes) => `${slashes}${slashes}\\|`);
/**
 * A link of the product's own making to a URL it built: the label is data, the URL's characters
 * that could end the destination (`(`, `)`, spaces, `<`, `>`) are percent-encoded.
 */
function markdown_link(label, url) {
    const destination = url.replace(/[()\s<>|]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
    return `[${markdown_inlineText(label)}](${destination})`;
}
/**
 * A SARIF result's `message.text` as Markdown. SARIF 2.1.0 (§3.11.6) lets a plain-text message
 * carry embedded links, `[text](target)`, whose target is a URI or the id of one of the result's
 * `relatedLocations` (a whole number), and escapes a literal bracket as `\[` `\]`. Those links
 * are the scanner's own format and stay links (http and https targets, and ids, kept as the
 * scanner wrote them); everything else is data (`inlineText`), the link texts included, so a
 * message can make no image, no HTML and no mention, and a link only to an http(s) address.
 */
function scannerMessage(message) {
    const parts = [];
    const embedded = /\\([[\]])|\[((?:[^[\]\\]|\\[[\]\\])*)\]\((https?:\/\/[^\s()<>|\\`]+|\d+)\)/g;
    let at = 0;
    for (const m of message.matchAll(embedded)) {
        parts.push(escaped(message.slice(at, m.index)));
        if (m[1] !== undefined)
            parts.push(escaped(m[1]));
        else
            parts.push(`[${escaped(m[2].replace(/\\([[\]\\])/g, '$1'))}](${m[3]})`);
        at = m.index + m[0].length;
    }
    parts.push(escaped(message.slice(at)));
    return atLineStart(parts.join(''));
}

;// CONCATENATED MODULE: ./build/actions/gate/outputs/not-counted.js


/**
 * The entry as written. Fields that are not known are left undefined, which JSON.stringify leaves
 * out: one object a result, no copying (a report may have a hundred thousand of them).
 */
function not_counted_entryOf(n) {
    const d = n.detail;
    const entry = {
        reason: n.reason,
        tool: n.tool,
        rule: n.ruleId,
        severity: n.severity,
        path: n.path,
        line: n.line,
        run: n.runIndex,
        result: n.index,
    };
    if (!d)
        return entry;
    if ('movedFrom' in d)
        entry.moved_from = { path: d.movedFrom.path, line: d.movedFrom.line };
    else if ('baseline' in d)
        entry.baseline = { rule: d.baseline.rule, path: d.baseline.path, line: d.baseline.line, fingerprint: d.baseline.fingerprint };
    else if ('bump' in d)
        entry.bump = { package: d.bump.package, base_version: d.bump.baseVersion, head_version: d.bump.headVersion, fixed_version: d.bump.fixedVersion, crosses_major: d.bump.crossesMajor };
    else if ('package' in d)
        entry.package = { name: d.package, version: d.version };
    else if ('suppression' in d)
        entry.suppression = { kind: d.suppression.kind, status: d.suppression.status, justification: d.suppression.justification };
    else if ('pathAsWritten' in d)
        entry.path_as_written = d.pathAsWritten;
    else {
        entry.kind = d.kind;
        entry.baseline_state = d.baselineState;
    }
    return entry;
}
/** Counts per reason, every reason present (zeros included), in the summary's order. */
function countsByReason(notCounted) {
    const counts = Object.fromEntries(not_counted_REASONS.map((r) => [r, 0]));
    for (const n of notCounted)
        counts[n.reason]++;
    return counts;
}
/** At most `max` characters (code points), with an ellipsis when cut. */
function cut(text, max) {
    const points = [...text];
    return points.length <= max ? text : `${points.slice(0, max).join('')}…`;
}
/** What one entry says beside its place: the detail a reviewer checks the reason against. */
function detailText(n) {
    const d = n.detail;
    if (!d)
        return '';
    if ('movedFrom' in d)
        return `moved from ${d.movedFrom.path}:${d.movedFrom.line}`;
    if ('baseline' in d) {
        const b = d.baseline;
        return `baseline: ${b.rule ?? 'no rule'} at ${b.path ? `${b.path}${b.line ? `:${b.line}` : ''}` : 'no file'}, matched by ${b.fingerprint}`;
    }
    if ('bump' in d) {
        const b = d.bump;
        return `${b.package} ${b.baseVersion} → ${b.headVersion ?? '?'}, fixed in ${b.fixedVersion}${b.crossesMajor ? ' (crosses a major version: check whether the base version was affected)' : ''}`;
    }
    if ('package' in d)
        return `package ${d.package}${d.version ? ` ${d.version}` : ''}`;
    if ('suppression' in d) {
        const s = d.suppression;
        return `suppression ${s.kind ?? '(no kind)'}${s.status ? ` (${s.status})` : ''}${s.justification ? `: ${s.justification}` : ''}`;
    }
    if ('pathAsWritten' in d)
        return `written as ${d.pathAsWritten}`;
    return [d.baselineState ? `baselineState ${d.baselineState}` : '', d.kind ? `kind ${d.kind}` : ''].filter(Boolean).join(', ');
}
/** How many findings of each reason the summary lists. */
const LISTED_PER_REASON = 20;
/**
 * The summary's section: a table of counts per reason (those with any), then (with `list`, in the
 * job summary) the first `LISTED_PER_REASON` findings of each in one collapsed `<details>`
 * section. Empty when every result is net-new.
 */
function notCountedSection(notCounted, list) {
    if (notCounted.length === 0)
        return [];
    const counts = countsByReason(notCounted);
    const present = REASONS.filter((r) => counts[r] > 0);
    const lines = ['**Not counted, and why** (every result that is not net-new, by the rule that dropped it):', '', '| Reason | Results | Meaning |', '| --- | --- | --- |'];
    for (const r of present)
        lines.push(`| \`${r}\` | ${counts[r]} | ${REASON_TEXT[r]} |`);
    lines.push('');
    if (!list)
        return lines;
    lines.push('<details><summary>The first findings of each reason</summary>', '');
    for (const r of present) {
        const listed = notCounted.filter((n) => n.reason === r).slice(0, LISTED_PER_REASON);
        lines.push(`**${r}** (${listed.length} of ${counts[r]}):`, '');
        for (const n of listed) {
            const place = n.path ? `${n.path}${n.line ? `:${n.line}` : ''}` : '(no file)';
            const message = typeof n.result.message?.text === 'string' ? n.result.message.text.split('\n', 1)[0] : '';
            const detail = detailText(n);
            lines.push(`- ${inlineText(cut(place, 300))} · ${n.severity} · ${inlineText(cut(n.tool, 100))}${n.ruleId ? ` ${inlineText(cut(n.ruleId, 200))}` : ''}${message ? ` · ${inlineText(cut(message, 200))}` : ''}${detail ? ` · ${inlineText(cut(detail, 400))}` : ''}`);
        }
        lines.push('');
    }
    lines.push('</details>', '');
    return lines;
}

;// CONCATENATED MODULE: ./build/actions/gate/outputs/upload-shape.js

/**
 * What code scanning accepts in one upload (GitHub's "SARIF support for code scanning"): more
 * runs or results are refused whole ("rejecting SARIF, as there are more runs than allowed").
 */
const CODE_SCANNING_LIMITS = { runsPerFile: 20, resultsPerRun: 25_000 };
/** The category given to the extra parts of a run that has none of its own. */
const DEFAULT_CATEGORY = 'gatehouse-net-new';
/**
 * The identity code scanning gives a run: since July 2025 an upload whose runs share it is
 * refused ("multiple SARIF runs with the same category"). codeql-action's upload-sarif builds it
 * from these driver fields and `automationDetails.id`, before its `category` input is applied.
 */
function runKey(run) {
    const d = run.tool.driver;
    const automation = run.automationDetails?.id;
    return JSON.stringify([d.name, d.fullName, d.version, d.semanticVersion, d.guid, automation]);
}
/** `automationDetails.id` for the n-th part (n ≥ 2) of a run: a category of its own. */
function partCategory(run, n) {
    const own = run.automationDetails?.id;
    // The category is what precedes the last '/': ending the id with '/' makes all of it the category.
    const base = typeof own === 'string' && own ? (own.endsWith('/') ? own : `${own}/`) : `${DEFAULT_CATEGORY}/`;
    return `${base}part-${n}/`;
}
const rank = (part) => part.findings.reduce((worst, f) => Math.min(worst, SEVERITIES.indexOf(f.severity)), SEVERITIES.length);
/**
 * Decides the runs of the filtered SARIF so that code scanning takes it as it is:
 * - a run without net-new results is left out (MegaLinter writes one run per linter, most of them
 *   empty, often more than 20); when no run has any, the report's first run is kept, empty, because
 *   an upload needs at least one run;
 * - a run with more than 25,000 net-new results is cut into parts of at most 25,000;
 * - a part whose run identity (`runKey`) is already taken gets a category of its own,
 *   `<its automationDetails.id, else gatehouse-net-new>/part-<n>/`;
 * - past 20 parts, those holding the worst findings are kept (severity, then report order) and
 *   the others' results are counted as left out: the gate's answer and the summary still hold them.
 */
function shapeForUpload(runs, netNew) {
    const byRun = new Map();
    for (const finding of netNew) {
        const list = byRun.get(finding.runIndex);
        if (list)
            list.push(finding);
        else
            byRun.set(finding.runIndex, [finding]);
    }
    if (byRun.size === 0)
        return { parts: runs.length > 0 ? [{ runIndex: 0, findings: [] }] : [], leftOut: 0 };
    const seen = new Map();
    const parts = [];
    for (const [runIndex, findings] of [...byRun].sort((a, b) => a[0] - b[0])) {
        const run = runs[runIndex];
        const key = runKey(run);
        for (let start = 0; start < findings.length; start += CODE_SCANNING_LIMITS.resultsPerRun) {
            const n = (seen.get(key) ?? 0) + 1;
            seen.set(key, n);
            const slice = findings.slice(start, start + CODE_SCANNING_LIMITS.resultsPerRun);
            parts.push({ runIndex, findings: slice, ...(n > 1 ? { automationId: partCategory(run, n) } : {}) });
        }
    }
    if (parts.length <= CODE_SCANNING_LIMITS.runsPerFile)
        return { parts, leftOut: 0 };
    const kept = new Set(parts
        .map((part, order) => ({ part, order, rank: rank(part) }))
        .sort((a, b) => a.rank - b.rank || a.order - b.order)
        .slice(0, CODE_SCANNING_LIMITS.runsPerFile)
        .map((p) => p.part));
    const leftOut = parts.filter((p) => !kept.has(p)).reduce((n, p) => n + p.findings.length, 0);
    return { parts: parts.filter((p) => kept.has(p)), leftOut };
}

;// CONCATENATED MODULE: ./build/actions/gate/outputs/report.js






const COUNTS_SCHEMA_VERSION = 1;
function countsOf(classification, extra) {
    const bySeverity = Object.fromEntries(SEVERITIES.map((s) => [s, 0]));
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
        unmapped_count: classification?.unmapped ?? 0,
        moved_count: classification?.moved ?? 0,
        unattributed_count: classification?.unattributed ?? 0,
        baseline_matched_count: classification?.baselineMatched ?? 0,
        still_affected_count: classification?.stillAffected ?? 0,
        not_a_finding_count: classification?.notFindings ?? 0,
        not_counted_by_reason: countsByReason(classification?.notCounted ?? []),
        blocking_count: classification?.netNew.filter((f) => f.blocking).length ?? 0,
        net_new_by_severity: bySeverity,
        linters_skipped: extra.linters_skipped,
        linters_missing: extra.linters_missing,
        ...(extra.linters_source ? { linters_source: extra.linters_source } : {}),
        failed_invocations: extra.failed_invocations,
        stale_report: extra.stale_report,
        warnings: extra.warnings,
        filtered_left_out_count: extra.filtered_left_out_count ?? 0,
        ...(extra.base ? { base: extra.base } : {}),
        ...(extra.head ? { head: extra.head } : {}),
        ...(extra.merge_base ? { merge_base: extra.merge_base } : {}),
        ...(extra.error ? { error: extra.error } : {}),
    };
}
const EMPTY_SARIF = { $schema: 'https://json.schemastore.org/sarif-2.1.0.json', version: '2.1.0', runs: [] };
/** A net-new result as the filtered SARIF holds it: marked new, the location that made it net-new first (code scanning shows a result there). */
function asNew(finding) {
    const { result, locationIndex } = finding;
    const locations = Array.isArray(result.locations) && locationIndex > 0 && locationIndex < result.locations.length
        ? [result.locations[locationIndex], ...result.locations.filter((_, i) => i !== locationIndex)]
        : result.locations;
    return { ...result, ...(locations ? { locations } : {}), baselineState: 'new' };
}
/**
 * The net-new-only SARIF, shaped so code scanning takes it as it is (`shapeForUpload`): each kept
 * run with its tool and rule metadata (so code scanning can show the rules), its results narrowed
 * to the net-new ones. Written to a temporary file, then renamed into place: a reader never sees
 * half a file. Without a classification (no answer) the file is a valid SARIF log with no runs,
 * which code scanning refuses: the README's workflow skips the upload on exit 2. Returns how many
 * net-new results code scanning's runs-per-file limit left out, for the counts and the summary.
 */
async function writeFilteredSarif(path, log, classification) {
    let filtered = EMPTY_SARIF;
    let leftOut = 0;
    if (log && classification) {
        const { runs, ...top } = log;
        const shape = shapeForUpload(runs, classification.netNew);
        leftOut = shape.leftOut;
        filtered = {
            ...top,
            version: '2.1.0',
            runs: shape.parts.map((part) => {
                const run = runs[part.runIndex];
                return {
                    ...run,
                    ...(part.automationId ? { automationDetails: { ...run.automationDetails, id: part.automationId } } : {}),
                    results: part.findings.map(asNew),
                };
            }),
        };
    }
    await (0,promises_namespaceObject.mkdir)((0,external_node_path_namespaceObject.dirname)(path), { recursive: true });
    const temporary = `${path}.${process.pid}.tmp`;
    try {
        await (0,promises_namespaceObject.writeFile)(temporary, `${JSON.stringify(filtered)}\n`);
        await (0,promises_namespaceObject.rename)(temporary, path);
    }
    catch (err) {
        await (0,promises_namespaceObject.rm)(temporary, { force: true });
        throw err;
    }
    return leftOut;
}
/**
 * Writes the counts document: the counts as indented JSON, then `not_counted`, one entry a line.
 * The entries are written as they are made, 64 KiB at a time, so a report of a hundred thousand
 * pre-existing results never becomes one string in memory. Synchronously: the gate has nothing
 * else to do meanwhile.
 */
async function writeCounts(path, counts, notCounted) {
    await (0,promises_namespaceObject.mkdir)((0,external_node_path_namespaceObject.dirname)(path), { recursive: true });
    const fd = (0,external_node_fs_.openSync)(path, 'w');
    try {
        const head = JSON.stringify(counts, null, 2);
        let chunk = `${head.slice(0, -2)},\n  "not_counted": [`;
        for (let i = 0; i < notCounted.length; i++) {
            chunk += `${i === 0 ? '' : ','}\n    ${JSON.stringify(not_counted_entryOf(notCounted[i]))}`;
            if (chunk.length >= 1 << 16) {
                (0,external_node_fs_.writeFileSync)(fd, chunk);
                chunk = '';
            }
        }
        (0,external_node_fs_.writeFileSync)(fd, `${chunk}${notCounted.length > 0 ? '\n  ]\n}\n' : ']\n}\n'}`);
    }
    finally {
        (0,external_node_fs_.closeSync)(fd);
    }
}

;// CONCATENATED MODULE: ./build/actions/gate/reports/stale-report.js



const NO = { code: 1, stdout: Buffer.alloc(0), stderr: '' };
/** A git that cannot run says nothing about staleness (the diff reports it): a "no". */
function ask(repo, args) {
    return git_git(repo, args).catch(() => NO);
}
/** Whether a folder above the file holds `.git`: when none does, no git process is needed to know it is untracked. */
function underAWorkTree(file) {
    for (let dir = (0,external_node_path_namespaceObject.dirname)(file);; dir = (0,external_node_path_namespaceObject.dirname)(dir)) {
        if ((0,external_node_fs_.existsSync)((0,external_node_path_namespaceObject.join)(dir, '.git')))
            return true;
        if ((0,external_node_path_namespaceObject.dirname)(dir) === dir)
            return false;
    }
}
/**
 * Whether the report is a file committed at head rather than this run's output: the path lies in
 * the repository, the head commit has it, git tracks it, and its bytes hash to the very blob that
 * head's tree holds there (`git hash-object` against `git rev-parse <head>:<path>`). A linter that
 * wrote nothing leaves such a file in place, and judging it would judge an earlier run. A report
 * outside the repository, untracked, or changed since head is never stale. Returns the
 * repository-relative path when stale.
 *
 * The top level and the head's files come from the checkout the gate reads anyway: a report that
 * is not one of the head's files (the usual case, an untracked output) costs no git process.
 */
async function staleReport(sarif, head, pendingCheckout) {
    let report;
    try {
        report = (0,external_node_fs_.realpathSync)(sarif);
    }
    catch {
        return undefined;
    }
    if (!underAWorkTree(report))
        return undefined;
    let checkout;
    let path;
    try {
        checkout = await pendingCheckout;
        path = (0,external_node_path_namespaceObject.relative)((0,external_node_fs_.realpathSync)(checkout.topLevel), report);
    }
    catch {
        // A checkout git cannot read says nothing about staleness; the diff or the checkout reports it.
        return undefined;
    }
    if (!path || path.startsWith('..') || (0,external_node_path_namespaceObject.isAbsolute)(path))
        return undefined;
    const inRepo = path.split(external_node_path_namespaceObject.sep).join('/');
    if (!checkout.files.has(inRepo))
        return undefined;
    const root = checkout.topLevel;
    // Tracked, not only present at head: a report removed from the index but left in the work tree
    // is this run's to rewrite. `:(literal)` so a path with glob characters names only itself.
    const [tracked, blob] = await Promise.all([
        ask(root, ['ls-files', '--error-unmatch', '--', `:(literal)${inRepo}`]),
        ask(root, ['rev-parse', '--verify', '--quiet', `${head}:${inRepo}`]),
    ]);
    if (tracked.code !== 0 || blob.code !== 0)
        return undefined;
    const hashed = await ask(root, ['hash-object', '--', inRepo]);
    return hashed.code === 0 && gitText(hashed) === gitText(blob) ? inRepo : undefined;
}

;// CONCATENATED MODULE: ./build/actions/gate/rules/verdict.js


const noAnswer = (error) => ({ exitCode: EXIT_ERROR, message: `no answer: ${error}`, error });
/** What `--strict` makes a tool error. */
function toolErrors({ skipped, missing, failed, stale, settings }) {
    return [
        ...skipped.map((s) => `${s.linter} is enabled but cannot write SARIF`),
        ...missing.map((m) => `${m.linter} is enabled but has no run in the report`),
        ...failed.map((f) => `${f} failed to run`),
        ...(stale ? [`the report ${stale} is unchanged from the committed file at head (stale)`] : []),
        ...(settings?.problem && !settings.enabled ? [`the enabled linters are unknown (${settings.problem})`] : []),
    ];
}
/**
 * When results name files but none of them is a file of the head, the report was made from
 * another checkout (or another directory): nothing can be judged, so there is no answer.
 */
function pathsMismatch(c, topLevel, naming) {
    const mapped = c.netNew.length + c.preExisting + c.sopsIgnored;
    if (c.unmapped === 0 || mapped > 0)
        return undefined;
    const [first, ...others] = c.unmappedExamples;
    const option = (name) => optionName(name, naming);
    return (`the report's paths do not match this checkout: none of the ${c.unmapped} located result${c.unmapped === 1 ? '' : 's'} names a file ` +
        `of the head commit under ${topLevel} (the first is ${first}${others.length > 0 ? `; also ${others.join(', ')}` : ''}); ` +
        `run the gate on the checkout the report was made from, point ${option('repo')} at the directory it scanned, ` +
        `or remove the prefix the scanner saw the repository under with ${option('strip-prefix')}` +
        (c.strippable
            ? `: ${option('strip-prefix')} ${c.strippable} makes ${first} a file of the head`
            : ` <prefix> (no ending of ${first} names a file of the head, so no prefix is suggested)`));
}
/**
 * Results at or above the threshold that name no file (logical locations only, or none) cannot be
 * placed by the diff: without a baseline to decide them, nothing passes on them.
 */
function unplaceable(c, failOn, naming) {
    if (c.noLocationBlocking === 0)
        return undefined;
    const n = c.noLocationBlocking;
    const first = c.notCounted.find((x) => x.reason === 'no-location' && blocks(x.severity, failOn));
    const what = first ? ` (the first: ${first.tool}${first.ruleId ? ` ${first.ruleId}` : ''}, ${first.severity})` : '';
    return (`${n} result${n === 1 ? '' : 's'} at or above ${failOn} name${n === 1 ? 's' : ''} no file${what}: the diff cannot tell whether the pull request introduced ${n === 1 ? 'it' : 'them'}; ` +
        `give ${optionName('baseline-sarif', naming)} (the base commit's report), which decides results without a file`);
}
/**
 * The exit code, first rule that applies: a setup problem, then under `--strict` a tool error, then
 * a report whose paths name no file of the head are no answer (2); a blocking net-new finding
 * blocks (1); a result at or above the threshold that names no file is no answer (2), since it
 * could be new; otherwise a pass (0).
 */
function verdict(facts, options) {
    const naming = options.naming ?? 'flag';
    if ('problem' in facts)
        return noAnswer(facts.problem);
    const errors = options.strict ? toolErrors(facts) : [];
    if (errors.length > 0)
        return noAnswer(`${optionName('strict', naming)}: ${errors.join('; ')}`);
    const { classification: c, topLevel } = facts;
    const mismatch = pathsMismatch(c, topLevel, naming);
    if (mismatch)
        return noAnswer(mismatch);
    const blocking = c.netNew.filter((f) => f.blocking).length;
    if (blocking > 0)
        return { exitCode: EXIT_BLOCKED, message: `blocked by ${blocking} net-new finding${blocking === 1 ? '' : 's'} at or above ${options.failOn}` };
    const unplaced = unplaceable(c, options.failOn, naming);
    if (unplaced)
        return noAnswer(unplaced);
    return { exitCode: EXIT_OK, message: `no blocking net-new findings (${c.netNew.length} net-new, ${c.preExisting} pre-existing)` };
}

;// CONCATENATED MODULE: ./build/actions/gate/ci.js













/**
 * `gate ci`: classify the report's results against the pull request's diff, decide the verdict,
 * write the filtered SARIF and the counts, then answer with the exit code (0 pass, 1 blocked,
 * 2 no answer). The outputs are written in every case.
 */
async function runCi(options, env) {
    const git = await startGit(options);
    // Whatever stopped the gathering, git's steps are awaited: none is left behind, nor its failure unhandled.
    const facts = await gather(options, env, git).finally(() => git.ended);
    return writeOutputs(options, facts, verdict(facts, options));
}
/** The filtered SARIF (empty when nothing was classified) and the counts, whatever the verdict. */
async function writeOutputs(options, facts, { exitCode, message, error }) {
    const { log, diff, settings, stale } = facts;
    const classification = 'classification' in facts ? facts.classification : undefined;
    const warnings = [
        ...(settings?.problem ? [`${settings.problem}: ${settings.enabled ? 'SARIF_REPORTER_LINTERS may be unknown' : 'the enabled linters are unknown, so skipped and missing linters are not checked'} (name them with --linters, action input linters)`] : []),
        ...(stale ? [`the report ${stale} is the file committed at head, unchanged: an earlier run's output, since this run wrote no report`] : []),
    ];
    const leftOut = options.filteredOut ? await writeFilteredSarif(options.filteredOut, log, classification) : 0;
    const counts = countsOf(classification, {
        exit_code: exitCode,
        fail_on: options.failOn,
        linters_skipped: facts.skipped,
        linters_missing: facts.missing,
        failed_invocations: facts.failed,
        stale_report: stale !== undefined,
        warnings,
        ...(settings?.source ? { linters_source: settings.source } : {}),
        filtered_left_out_count: leftOut,
        ...(diff ? { base: options.base, head: diff.head, merge_base: diff.mergeBase } : {}),
        ...(error ? { error } : {}),
    });
    if (options.countsJson)
        await writeCounts(options.countsJson, counts, classification?.notCounted ?? []);
    return { exitCode, counts, message, ...(classification ? { classification } : {}), ...(diff ? { diff } : {}) };
}
/**
 * git computes the diff in its own process while this one reads the report: the checks before it
 * take a few git calls, then `git diff` runs alone. The head's file list is read beside it, once
 * it runs: starting a process takes this one's thread a few milliseconds, which would otherwise
 * delay git diff. Each step is watched from its start, so its failure waits for its turn to be
 * reported (report problems come first); `ended` settles once every step has, whatever they did.
 */
async function startGit(options) {
    let running;
    const diffRunning = new Promise((resolve) => (running = resolve));
    const diff = pullRequestDiff(options.repo, options.base, options.head, running);
    const diffEnded = Promise.allSettled([diff]);
    await diffRunning;
    const { workTree, checkout } = checkoutOf(options.repo, options.head);
    const stale = staleReport(options.sarif, options.head, checkout);
    return { diff, workTree, checkout, stale, ended: Promise.allSettled([diffEnded, workTree, checkout, stale]) };
}
/**
 * The facts, in the order their problems are reported: the report, then MegaLinter's settings
 * and the linters, the diff, the checkout and the classification. A setup problem (a
 * `GateError`) stops there, with the facts gathered before it.
 */
async function gather(options, env, git) {
    let known = { skipped: [], missing: [], failed: [] };
    try {
        const log = readReport(options.sarif);
        const settings = await megalinterSettingsOf(options, env, git.workTree);
        const skipped = skippedLinters(settings.enabled, megalinterMajor(log), settings.sarifLinters);
        known = { log, settings, skipped, missing: missingLinters(log, options.sarif, settings.enabled, skipped), failed: failedInvocations(log) };
        const diff = await git.diff;
        known = { ...known, diff };
        const checkout = await git.checkout;
        const classification = classify(log, diff, {
            failOn: options.failOn,
            checkout,
            sops: new SopsDetector(checkout.topLevel),
            skippedLinters: new Set(skipped.map((s) => s.linter)),
            unattributed: options.unattributed,
            ...(options.stripPrefixes ? { stripPrefixes: options.stripPrefixes } : {}),
            ...(options.baselineSarif ? { baseline: Baseline.open(options.baselineSarif, checkout, options.stripPrefixes) } : {}),
        });
        return { ...known, stale: await git.stale, classification, topLevel: checkout.topLevel };
    }
    catch (err) {
        if (!(err instanceof GateError))
            throw err;
        return { ...known, stale: await git.stale, problem: err.message };
    }
}
/** The report, refused when it holds nothing to judge: no runs, or a run that computed no results. */
function readReport(path) {
    const log = readSarif(path);
    if (log.runs.length === 0)
        throw new GateError('the SARIF report has no runs: nothing was scanned');
    const uncomputed = log.runs.flatMap((run) => (computed(run) ? [] : [linterKeyOf(run) ?? run.tool.driver.name ?? 'unknown tool']));
    if (uncomputed.length > 0) {
        throw new GateError(`the run of ${uncomputed.join(', ')} produced no results ("results" is null or absent: the tool computed none, as after a failure); nothing can be judged from it`);
    }
    return log;
}
/** Runs whose tool says its invocation failed: a partial scan. */
function failedInvocations(log) {
    return log.runs
        .filter((run) => run.invocations?.some((i) => i.executionSuccessful === false))
        .map((run) => linterKeyOf(run) ?? run.tool.driver.name ?? 'unknown tool');
}
/**
 * MegaLinter's settings as read from `--repo`, else, when `--repo` is a directory inside the work
 * tree and holds no configuration, from the top level (where MegaLinter usually runs). A top
 * level git cannot tell leaves `--repo`'s settings; the checkout reports why in its turn.
 */
async function megalinterSettingsOf(options, env, workTree) {
    const settings = await megalinterSettings(options.linters, env, options.repo);
    if (settings.source || settings.problem)
        return settings;
    const topLevel = await workTree.then((w) => w.topLevel, () => undefined);
    return topLevel && (0,external_node_path_namespaceObject.resolve)(topLevel) !== (0,external_node_path_namespaceObject.resolve)(options.repo) ? megalinterSettings(options.linters, env, topLevel) : settings;
}

;// CONCATENATED MODULE: ./build/actions/gate/command.js





/**
 * The `gate` command: returns the exit code; relative paths resolve against `cwd`; a workflow's
 * pull-request event gives the default base.
 */
async function gateCommand(argv, env, cwd, io, event = NO_EVENT) {
    let command;
    try {
        command = parseCommand(argv, cwd, 'flag', event);
    }
    catch (err) {
        if (!(err instanceof GateError))
            throw err;
        if (err instanceof GateUsageError)
            io.err(err.usage);
        io.err(noAnswerLine(err.message));
        return EXIT_ERROR;
    }
    if (command.kind === 'help') {
        io.out(command.text);
        return EXIT_OK;
    }
    if (command.kind === 'version') {
        io.out(packageVersion());
        return EXIT_OK;
    }
    const outcome = await runCi(command.options, env);
    const c = outcome.counts;
    for (const finding of outcome.classification?.netNew ?? []) {
        const place = finding.path ? `${finding.path}:${finding.startLine ?? 1}` : '(no file)';
        io.out(`${finding.blocking ? 'BLOCKING' : 'net-new '} ${finding.severity.padEnd(8)} ${place} ${finding.tool}${finding.ruleId ? ` ${finding.ruleId}` : ''}`);
    }
    for (const skipped of c.linters_skipped)
        io.out(`skipped  ${skipped.linter}: ${skipped.reason}`);
    for (const missing of c.linters_missing)
        io.out(`missing  ${missing.linter}: ${missing.reason}`);
    for (const warning of c.warnings)
        io.err(`warning: ${warning}`);
    // Counts only when findings were classified: "0 net-new" after no answer would read like a pass.
    if (outcome.classification) {
        const reasons = Object.entries(c.not_counted_by_reason).filter(([, n]) => n > 0);
        if (reasons.length > 0)
            io.out(`not counted: ${reasons.map(([reason, n]) => `${n} ${reason}`).join(', ')} (each with its reason in --counts-json)`);
        io.out(`gate: ${c.net_new_count} net-new (${c.blocking_count} blocking), ${c.pre_existing_count} pre-existing, ${c.suppressed_count} suppressed, ${c.sops_ignored_count} SOPS-encrypted, ${c.no_location_count} without location, ${c.unmapped_count} not in the repository${c.not_a_finding_count > 0 ? `, ${c.not_a_finding_count} not findings` : ''}`);
    }
    if (outcome.exitCode === EXIT_ERROR)
        io.err(noAnswerLine(c.error ?? outcome.message));
    else
        (outcome.exitCode === EXIT_OK ? io.out : io.err)(`gate: ${outcome.message} (exit ${outcome.exitCode})`);
    return outcome.exitCode;
}


/***/ }),

/***/ 8579:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   I: () => (/* binding */ CliOutput)
/* harmony export */ });
/** Bytes of standard output held before they are written. */
const FLUSH_AT = 1 << 16;
/**
 * The command line's output, as `console.log`/`console.error` would print it (each line followed by
 * a newline), with standard output collected into large writes: `gate ci` prints a line per
 * net-new finding, thousands on a large report, and one console call per line cost more than the
 * rest of the output phase. A line on standard error writes out what standard output holds first,
 * so the two keep their order on a shared terminal; `flush` writes the rest at the end.
 */
class CliOutput {
    stdout;
    stderr;
    held = [];
    size = 0;
    constructor(stdout, stderr) {
        this.stdout = stdout;
        this.stderr = stderr;
    }
    out = (line) => {
        this.held.push(line, '\n');
        this.size += line.length + 1;
        if (this.size >= FLUSH_AT)
            this.flush();
    };
    err = (line) => {
        this.flush();
        this.stderr.write(`${line}\n`);
    };
    flush() {
        if (this.held.length === 0)
            return;
        const text = this.held.join('');
        this.held = [];
        this.size = 0;
        this.stdout.write(text);
    }
}


/***/ }),

/***/ 4843:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   j: () => (/* binding */ runnerEvent)
/* harmony export */ });
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(3024);

/**
 * The workflow's event for the `gate` command line, read from the runner's event file the way
 * `@actions/github`'s `context` reads it (an absent or unreadable file is no payload). The command
 * line does not import `@actions/github`: that would make its bundle eight times larger (and
 * slower to start) for two fields.
 */
function runnerEvent(env) {
    let payload = {};
    if (env.GITHUB_EVENT_PATH) {
        try {
            const parsed = JSON.parse((0,node_fs__WEBPACK_IMPORTED_MODULE_0__.readFileSync)(env.GITHUB_EVENT_PATH, 'utf8'));
            if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
                payload = parsed;
        }
        catch {
            // No readable event: no default base.
        }
    }
    return { eventName: env.GITHUB_EVENT_NAME, payload };
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
