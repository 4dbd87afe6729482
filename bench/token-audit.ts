/**
 * The token audit's part of bench/token.ts (issue 46). The audit is always on: every answer of the
 * main broker writes its record to the store before it is sent, so the main broker's `/token`
 * figures are the audit-on figures. Here:
 * - `recordCpuMicros`: the audit's own CPU per token, measured in this process: a record made from
 *   a verified caller and a minted token (the token hashed) and written to the in-memory store,
 *   as the route does. A whole-process A/B cannot resolve it: it is a few microseconds against a
 *   request's ~1 ms, whose round-to-round spread on a shared machine is larger.
 * - `auditKept`: every token the broker answered has its record (no write failed) and the audit
 *   route lists them; the run fails otherwise.
 */
import { randomBytes } from 'node:crypto';
import { TokenAudit } from '../server/audit/token-audit.js';
import { TokenTrail } from '../server/audit/trail.js';
import type { CallerIdentity } from '../server/auth/verifier.js';
import { createLogger } from '../server/logger.js';
import { MemoryTokenAuditStore } from '../server/store/audit-memory.js';
import { BROKER_AUDIENCE, INSTALLATION_ID, REPO } from '../test/support/broker.js';
import type { TestIssuer } from '../test/support/oidc-issuer.js';

/** Records timed by `recordCpuMicros`. */
export const RECORDS = 20_000;

/** The audit's work for one answered token, in this process: µs of CPU per record. */
export async function recordCpuMicros(issuer: TestIssuer): Promise<number> {
  const claims = { ...issuer.claims({ aud: BROKER_AUDIENCE }), workflow_ref: 'octo-org/octo-repo/.github/workflows/release.yml@refs/heads/main', event_name: 'push', environment: 'production' };
  const caller: CallerIdentity = { issuer: issuer.url, audience: BROKER_AUDIENCE, repository: REPO, repositoryId: '123456789', repositoryOwner: 'octo-org', claims };
  const audit = new TokenAudit({ store: new MemoryTokenAuditStore(), clock: { now: () => Date.now() }, settings: () => ({ retentionDays: 90, write: 'best-effort' }) });
  const log = createLogger({ level: 'silent' });
  const one = async () => {
    const trail = new TokenTrail('main', '/token');
    trail.askedFor('octo-org', 'octo-repo');
    trail.verified(caller);
    trail.minted({ token: `ghs_${randomBytes(18).toString('hex')}`, expiresAt: '2030-01-01T00:00:00Z', permissions: { contents: 'write', metadata: 'read' }, installationId: INSTALLATION_ID, covers: { selection: 'selected', repositories: [{ id: 123456789, name: 'octo-repo' }] } }, REPO);
    await audit.record(trail.fields('minted'), log);
  };
  for (let i = 0; i < 2000; i++) await one();
  const before = process.cpuUsage();
  for (let i = 0; i < RECORDS; i++) await one();
  const used = process.cpuUsage(before);
  // The token's random bytes are made here only (the platform makes them): measured apart and taken off.
  const rb = process.cpuUsage();
  for (let i = 0; i < RECORDS; i++) randomBytes(18).toString('hex');
  const tokenCost = process.cpuUsage(rb);
  return (used.user + used.system - tokenCost.user - tokenCost.system) / RECORDS;
}

/** The counters the broker process reports: tokens minted and audit records not written. */
async function counters(url: string): Promise<{ minted: number; failures: number }> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const sum = (pattern: RegExp) => [...text.matchAll(pattern)].reduce((n, m) => n + Number(m[1]), 0);
  return { minted: sum(/^gatehouse_token_requests_total\{outcome="minted"\} (\d+)$/gm), failures: sum(/^gatehouse_audit_write_failures_total\{[^}]*\} (\d+)$/gm) };
}

/** The broker's audit after a run: throws unless every record was written and the route lists the newest; the tokens minted. */
export async function auditKept(url: string, auditToken: string): Promise<number> {
  const counted = await counters(url);
  if (counted.failures > 0) throw new Error(`${counted.failures} audit records were not written`);
  const newest = (await (await fetch(`${url}/v1/audit/tokens?limit=1&outcome=minted`, { headers: { authorization: `Bearer ${auditToken}` } })).json()) as { records: unknown[] };
  if (newest.records.length !== 1) throw new Error('the audit route lists no record');
  return counted.minted;
}
