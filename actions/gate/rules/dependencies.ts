import type { PullRequestDiff } from '../diff/git-diff.js';
import type { SarifResult, SarifRule } from '../reports/sarif.js';
import type { CommitFiles } from '../diff/commit-files.js';

/** The package a dependency finding is about, as the scanner named it. */
export interface Package {
  /** Spellings to look for: `group:artifact` and `artifact` for Maven, the full name otherwise. */
  readonly names: readonly string[];
  readonly version?: string;
}

/** `pkg:type/namespace/name@version?qualifiers#subpath` (the package URL spec), decoded. */
export function parsePurl(purl: string): Package | undefined {
  const match = /^pkg:([a-z][a-z0-9.+-]*)\/([^?#\s]+)/i.exec(purl.trim());
  if (!match) return undefined;
  const type = match[1]!.toLowerCase();
  let path = match[2]!;
  let version: string | undefined;
  const at = path.lastIndexOf('@');
  if (at > 0) {
    version = path.slice(at + 1);
    path = path.slice(0, at);
  }
  let parts: string[];
  try {
    parts = path.split('/').filter(Boolean).map((p) => decodeURIComponent(p));
    if (version !== undefined) version = decodeURIComponent(version);
  } catch {
    return undefined;
  }
  const name = parts.pop();
  if (!name) return undefined;
  const namespace = parts.join('/');
  const names = !namespace ? [name] : type === 'maven' ? [`${namespace}:${name}`, name] : [`${namespace}/${name}`];
  return { names, ...(version ? { version } : {}) };
}

function fromNameVersion(name: string | undefined, version: string | undefined): Package | undefined {
  const n = name?.trim();
  if (!n) return undefined;
  // Maven coordinates `group:artifact`: the pom names the artifact on its own line.
  const names = n.includes(':') && !n.startsWith('pkg:') ? [n, n.slice(n.lastIndexOf(':') + 1)] : [n];
  const v = version?.trim();
  return { names, ...(v ? { version: v } : {}) };
}

const TEXT_PATTERNS: RegExp[] = [
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
const HELP_PATTERNS: RegExp[] = [/^Package: *(\S+)\s*\n(?:.*\n)*?Installed Version: *(\S+)/m, /^Package: *(\S+)\s*\nVersion: *(\S+)/m];

/** `name@version` as Snyk writes a package in a result's logical location (`bash@5.0-6ubuntu2`, `@scope/pkg@1.2.3`): a version starting with a digit. */
const NAME_AT_VERSION = /^(@?[A-Za-z0-9][\w.+\/-]*)@(\d[\w.+:~-]*)$/;

// Only names that cannot mean anything but a package: a code finding misread as a dependency one
// would be judged by the wrong rule.
const NAME_KEYS = ['PkgName', 'pkgName', 'packageName', 'package_name', 'pkg_name'];
const PURL_KEYS = ['purl', 'purls', 'packageUrl', 'package_url'];
const VERSION_KEYS = ['InstalledVersion', 'installedVersion', 'packageVersion', 'package_version', 'installed_version'];

function purlIn(values: unknown): Package | undefined {
  if (values === undefined) return undefined;
  for (const v of Array.isArray(values) ? values : [values]) {
    if (typeof v === 'string' && v.startsWith('pkg:')) {
      const p = parsePurl(v);
      if (p) return p;
    }
  }
  return undefined;
}

function purlInValues(prints: unknown): Package | undefined {
  return prints && typeof prints === 'object' ? purlIn(Object.values(prints)) : undefined;
}

/**
 * The package a result names, or undefined: properties (`PkgName`/`InstalledVersion` and the
 * like, `purl`/`purls`), fingerprints holding a package URL, Snyk's `name@version` logical
 * location, then the message text as Trivy, grype, osv-scanner and Anchore write it, then any
 * package URL in the message, then its rule's package URLs (grype's `properties.purls`) or help
 * text (Trivy's older template).
 */
export function packageOf(result: SarifResult, rule?: SarifRule): Package | undefined {
  // Called for every result in a changed file: the common case (no properties, no fingerprints,
  // no package in the message) allocates nothing.
  const props = result.properties;
  if (props && typeof props === 'object') {
    for (const key of PURL_KEYS) {
      const p = purlIn(props[key]);
      if (p) return p;
    }
    const nameKey = NAME_KEYS.find((k) => typeof props[k] === 'string' && props[k]);
    if (nameKey) {
      const versionKey = VERSION_KEYS.find((k) => typeof props[k] === 'string' && props[k]);
      const p = fromNameVersion(props[nameKey] as string, versionKey ? (props[versionKey] as string) : undefined);
      if (p) return p;
    }
  }
  const fingerprinted = purlInValues(result.partialFingerprints) ?? purlInValues(result.fingerprints);
  if (fingerprinted) return fingerprinted;
  const logical = logicalPackage(result);
  if (logical) return logical;
  const text = result.message?.text;
  if (typeof text === 'string') {
    // Most results name no package: a few substring tests spare them the patterns.
    if (text.includes('ackage') || text.includes(' type=')) {
      for (const pattern of TEXT_PATTERNS) {
        const m = pattern.exec(text);
        if (m) return fromNameVersion(m[1], m[2]);
      }
    }
    const purl = text.includes('pkg:') ? /pkg:[a-z][a-z0-9.+-]*\/[^\s"'<>()]+/i.exec(text) : null;
    if (purl) return parsePurl(purl[0]);
  }
  return rule ? ruleHelpPackage(rule) : undefined;
}

/** Snyk: the first location's `logicalLocations[].fullyQualifiedName` as `name@version`. */
function logicalPackage(result: SarifResult): Package | undefined {
  const logical = (result.locations?.[0] as { logicalLocations?: { fullyQualifiedName?: unknown }[] } | undefined)?.logicalLocations;
  if (!Array.isArray(logical)) return undefined;
  for (const l of logical) {
    const m = typeof l?.fullyQualifiedName === 'string' ? NAME_AT_VERSION.exec(l.fullyQualifiedName) : null;
    if (m) return fromNameVersion(m[1], m[2]);
  }
  return undefined;
}

function ruleHelpPackage(rule: SarifRule): Package | undefined {
  const purl = purlIn((rule.properties as { purls?: unknown } | undefined)?.purls);
  if (purl) return purl;
  const help = (rule as { help?: { text?: unknown } }).help?.text;
  if (typeof help !== 'string' || !help.includes('Package:')) return undefined;
  for (const pattern of HELP_PATTERNS) {
    const m = pattern.exec(help);
    if (m) return fromNameVersion(m[1], m[2]);
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

export function isLockfile(path: string): boolean {
  return LOCKFILES.has(path.slice(path.lastIndexOf('/') + 1));
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A name as it appears in lockfiles: case aside, `-`, `_` and `.` interchangeable (PyPI's rule). */
function nameRegExp(name: string): RegExp {
  const body = name
    .split(/[-_.]/)
    .map(escape)
    .join('[-_.]');
  // Not inside a longer name: `lodash` does not match `lodash.merge` or `lodash-es`, but does
  // match `lodash-4.17.21.tgz` and `lodash@4.17.21`.
  return new RegExp(`(?<![A-Za-z0-9_.-])${body}(?![A-Za-z0-9_]|[-_.][A-Za-z])`, 'i');
}

/** A version with an optional leading `v` (go.mod writes v1.2.3, osv-scanner 1.2.3), not a prefix of a longer one. */
function versionRegExp(version: string): RegExp {
  const core = escape(version.replace(/^v(?=\d)/, ''));
  return new RegExp(`(?<![0-9A-Za-z.])v?${core}(?![0-9]|\\.[0-9])`);
}

/** A version as lockfiles write one: digits and dots, an optional leading `v` or epoch, a suffix (`-r4`, `+build`, `~rc1`). */
const VERSION_TOKEN = /(?<![0-9A-Za-z.])(?:\d+:)?v?\d+(?:\.\d+)*(?:[-+~][0-9A-Za-z.+~]+)?(?![0-9A-Za-z])/g;

function indentOf(line: string): number {
  let i = 0;
  while (i < line.length && (line[i] === ' ' || line[i] === '\t')) i++;
  return i;
}

const blank = (line: string) => line.trim() === '';

/**
 * The entry an added line belongs to, as line indexes [from, to]: for an indented line, its
 * parent (the nearest line above with less indentation) and all the parent's children, which
 * is a package's object in package-lock.json, its `<dependency>` in pom.xml, its entry in
 * yarn.lock and pnpm-lock.yaml; for an unindented line, its paragraph (lines between blank
 * lines), which is a `[[package]]` table in Cargo.lock, poetry.lock and uv.lock.
 */
function entryOf(lines: readonly string[], index: number): [number, number] {
  const indent = indentOf(lines[index]!);
  if (indent === 0 || blank(lines[index]!)) {
    let from = index;
    while (from > 0 && !blank(lines[from - 1]!)) from--;
    let to = index;
    while (to + 1 < lines.length && !blank(lines[to + 1]!)) to++;
    return [from, to];
  }
  let parent = index - 1;
  while (parent >= 0 && (blank(lines[parent]!) || indentOf(lines[parent]!) >= indent)) parent--;
  if (parent < 0) return [0, lines.length - 1];
  const parentIndent = indentOf(lines[parent]!);
  let to = index;
  while (to + 1 < lines.length && (blank(lines[to + 1]!) || indentOf(lines[to + 1]!) > parentIndent)) to++;
  return [parent, to];
}

/**
 * Whether the pull request introduced a package in a changed file: the package appears on an
 * added line of it. With a version, the version must be on the added line and the name on it or
 * in its entry (a version bump in package-lock.json, Cargo.lock or pom.xml changes the version
 * line, not the name line). Head files are read from git only for the files asked about.
 */
export class DependencyChanges {
  private readonly answers = new Map<string, boolean>();

  constructor(
    private readonly diff: PullRequestDiff,
    private readonly files: CommitFiles,
  ) {}

  introduces(path: string, pkg: Package): boolean {
    const added = this.diff.files.get(path);
    if (added === undefined) return false;
    if (added === 'all') return true;
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

  private onAddedLine(lines: readonly string[], added: ReadonlySet<number>, pkg: Package): boolean {
    const names = pkg.names.map(nameRegExp);
    const version = pkg.version ? versionRegExp(pkg.version) : undefined;
    // A plain substring test first: a regenerated lockfile can have many thousand added lines.
    const core = pkg.version?.replace(/^v(?=\d)/, '');
    const named = (text: string) => names.some((n) => n.test(text));
    for (const n of added) {
      const text = lines[n - 1];
      if (text === undefined) continue;
      if (version && (!text.includes(core!) || !version.test(text))) continue;
      if (named(text)) return true;
      const [from, to] = entryOf(lines, n - 1);
      for (let i = from; i <= to; i++) if (i !== n - 1 && named(lines[i]!)) return true;
    }
    return false;
  }

  /**
   * The versions the package had in this file at the merge-base: each version on a line naming it
   * (after the name: `lodash@4.17.20`, `golang.org/x/net v0.17.0`, `rails (7.0.1)`), and on each
   * line of its entry that speaks of a version (`"version": "4.17.20"`, `version = "46.0.5"`).
   * Empty when the file or the package was not there.
   */
  baseVersions(path: string, pkg: Package): string[] {
    const lines = this.files.lines(this.diff.mergeBase, path);
    if (!lines) return [];
    const names = pkg.names.map(nameRegExp);
    const found = new Set<string>();
    const collect = (text: string) => {
      for (const m of text.matchAll(VERSION_TOKEN)) found.add(m[0]);
    };
    lines.forEach((line, i) => {
      const match = names.map((n) => n.exec(line)).find((m) => m !== null);
      if (!match) return;
      collect(line.slice(match.index + match[0].length));
      const [from, to] = entryOf(lines, i);
      for (let j = from; j <= to; j++) if (j !== i && /version/i.test(lines[j]!)) collect(lines[j]!.slice(lines[j]!.search(/version/i)));
    });
    return [...found];
  }
}
