import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BACKEND_ERRORS } from '../../server/errors.js';
import { HTTP_ERRORS } from '../../server/http/errors.js';
import { SYNC_SERVICE_ERRORS } from '../../server/sync/service/errors.js';
import { REPO_ROOT } from '../support/processes.js';

// Each server answers its errors from one catalogue (code → status): no route writes a status,
// and every code a server can answer is documented with that status.

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

const doc = (name: string) => readFileSync(join(REPO_ROOT, 'docs', name), 'utf8');

/** The docs say `<status> <code>` in prose, or put them in a table row (`| 503 | \`code\``, `| 503 | \`{"error":"code"…`). */
function documented(text: string, status: number, code: string): boolean {
  return [`${status} ${code}`, `${status} \`${code}\``, `| ${status} | \`${code}\``, `| ${status} | \`{"error":"${code}"`, `\`${status} ${code}\``, `${status} {"error":"${code}"`].some((form) => text.includes(form));
}

describe('error catalogues', () => {
  it('no route or use case writes a status: every refusal comes from a catalogue (server/errors.ts, server/sync/service/errors.ts, server/minimal/outcomes.ts)', () => {
    const offenders = files(join(REPO_ROOT, 'server'))
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .map((line, i) => ({ file: relative(REPO_ROOT, file), line: i + 1, text: line })),
      )
      .filter(({ text }) => /new AppError\(/.test(text))
      .map(({ file, text }) => `${file}: ${text.trim()}`);
    assert.deepEqual(offenders.sort(), [
      // Express's own 4xx (its status is Express's), and the catalogues' own constructor.
      "server/http/error-handler.ts: if (typeof status === 'number' && status >= 400 && status < 500) return new AppError(status, 'bad_request');",
      'server/http/errors.ts: new AppError(catalogue[code]!, code, extra, options);',
    ]);
  });

  it('every code of the backend is documented with its status (docs/ledger.md, docs/broker.md)', () => {
    const text = doc('ledger.md') + doc('broker.md') + doc('development.md');
    const missing = Object.entries(BACKEND_ERRORS).filter(([code, status]) => !documented(text, status, code));
    assert.deepEqual(missing, []);
  });

  it('every code of the sync service is documented with its status (docs/sync-service.md)', () => {
    const text = doc('sync-service.md') + doc('development.md');
    const own = Object.entries(SYNC_SERVICE_ERRORS).filter(([code]) => !(code in HTTP_ERRORS));
    assert.deepEqual(own.filter(([code, status]) => !documented(text, status, code)), []);
  });

  it('a code has one status wherever it is shared', () => {
    for (const [code, status] of Object.entries(HTTP_ERRORS)) {
      assert.equal(BACKEND_ERRORS[code as keyof typeof BACKEND_ERRORS], status, code);
      assert.equal(SYNC_SERVICE_ERRORS[code as keyof typeof SYNC_SERVICE_ERRORS], status, code);
    }
  });
});
