import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './processes.js';

/** `../shared/fixtures/<part>` (or `$GATEHOUSE_FIXTURES_DIR/<part>`); tests skip when it is absent. */
export function fixturesDir(part: 'gate' | 'sync'): string {
  return process.env.GATEHOUSE_FIXTURES_DIR ? join(process.env.GATEHOUSE_FIXTURES_DIR, part) : join(REPO_ROOT, '..', 'shared', 'fixtures', part);
}

export function haveFixture(part: 'gate' | 'sync', file: string): boolean {
  return existsSync(join(fixturesDir(part), file));
}

export function readFixture<T = unknown>(part: 'gate' | 'sync', file: string): T {
  return JSON.parse(readFileSync(join(fixturesDir(part), file), 'utf8')) as T;
}
