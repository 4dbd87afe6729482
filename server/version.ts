import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The npm package of the two CLIs (packages/cli) as committed; a release names it @<owner>/gatehouse-cli. */
export const CLI_PACKAGE = 'gatehouse-cli';

/** `gatehouse-cli` or an organisation's `@<owner>/gatehouse-cli` (scripts/release-cli.js). */
function isCliPackageName(name: string | undefined): boolean {
  return name === CLI_PACKAGE || (name?.startsWith('@') === true && name.endsWith(`/${CLI_PACKAGE}`));
}

/**
 * The package version, read once from the project's package.json (found by walking up, so it
 * works from the sources and from the compiled `build/` tree alike). The CLIs' npm package
 * (packages/cli, `@<owner>/gatehouse-cli` once released) carries the same version, so its bundles find theirs there.
 */
export function packageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if ((pkg.name === 'gatehouse' || isCliPackageName(pkg.name)) && pkg.version) return pkg.version;
    } catch {
      // not here: keep walking up
    }
    const parent = dirname(dir);
    if (parent === dir) return '0.0.0';
    dir = parent;
  }
}
