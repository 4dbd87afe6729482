import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './processes.js';

/** The project's copies of real reports (`test/fixtures/<part>`; sources and licences in its README). */
const PROJECT_FIXTURES = join(REPO_ROOT, 'test', 'fixtures');

export function fixturesDir(part: 'gate' | 'sync'): string {
  return join(PROJECT_FIXTURES, part);
}

export function fixturePath(part: 'gate' | 'sync', file: string): string {
  return join(fixturesDir(part), file);
}

export function readFixture<T = unknown>(part: 'gate' | 'sync', file: string): T {
  return JSON.parse(readFileSync(fixturePath(part, file), 'utf8')) as T;
}

/** A recording of a real server's answers, kept in `test/fixtures/<folder>`. */
export function readRecording<T = unknown>(folder: string, file: string): T {
  return JSON.parse(readFileSync(join(PROJECT_FIXTURES, folder, file), 'utf8')) as T;
}
