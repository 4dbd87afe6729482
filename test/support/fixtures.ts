import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './processes.js';

/** The project's own copies (`test/fixtures/<part>`, with their sources and licences in its README). */
const PROJECT_FIXTURES = join(REPO_ROOT, 'test', 'fixtures');

/** `../shared/fixtures/<part>` (or `$GATEHOUSE_FIXTURES_DIR/<part>`): files not yet copied into the project; tests skip when absent. */
export function fixturesDir(part: 'gate' | 'sync'): string {
  return process.env.GATEHOUSE_FIXTURES_DIR ? join(process.env.GATEHOUSE_FIXTURES_DIR, part) : join(REPO_ROOT, '..', 'shared', 'fixtures', part);
}

/** Where a fixture is read from: the project's copy first. */
export function fixturePath(part: 'gate' | 'sync', file: string): string {
  const own = join(PROJECT_FIXTURES, part, file);
  return existsSync(own) ? own : join(fixturesDir(part), file);
}

export function haveFixture(part: 'gate' | 'sync', file: string): boolean {
  return existsSync(fixturePath(part, file));
}

export function readFixture<T = unknown>(part: 'gate' | 'sync', file: string): T {
  return JSON.parse(readFileSync(fixturePath(part, file), 'utf8')) as T;
}

/** A recording of a real server's answers, kept in `test/fixtures/<folder>`. */
export function readRecording<T = unknown>(folder: string, file: string): T {
  return JSON.parse(readFileSync(join(PROJECT_FIXTURES, folder, file), 'utf8')) as T;
}
