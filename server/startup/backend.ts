import { MongoClient } from 'mongodb';
import { auditSettings } from '../audit/settings.js';
import { brokerSettings } from '../broker/settings.js';
import { brokerNotices } from '../broker/status.js';
import type { Checked, ConfigError, Env } from '../config-error.js';
import { consoleNotice, consoleSettings } from '../console/settings.js';
import { ledgerSettings } from '../ledger/settings.js';
import { metricsToken } from '../metrics/routes.js';
import { STORE_APP_NAME } from '../store/mongo.js';
import { mongoUriProblem } from '../store/mongo-uri.js';
import { checkListenSettings, type ListenSettings, type Notice } from './checks.js';

export interface BackendStartup extends ListenSettings {
  readonly notices: readonly Notice[];
}

/**
 * Everything the backend (ledger + broker + webhook) checks before it starts, every problem at
 * once: PORT, HOST, LOG_LEVEL, the syntax of MONGODB_URI (never whether the server answers: the
 * store connects lazily), every ledger setting and the console's (all four of its switches, or none). Broker settings never stop the process (each
 * only disables the routes that need it): they come back as notices. Each part's settings are
 * read through the memo its requests use, so they are parsed once.
 */
export function checkBackendStartup(env: Env): Checked<BackendStartup> {
  const problems: ConfigError[] = [];
  const listen = checkListenSettings(env, problems);
  const uri = env.MONGODB_URI?.trim();
  const mongo = uri ? mongoUriProblem(uri, MongoClient, STORE_APP_NAME) : undefined;
  if (mongo) problems.push(mongo);
  const ledger = ledgerSettings(env);
  if (!ledger.ok) problems.push(...ledger.problems);
  const consoleState = consoleSettings(env);
  if (!consoleState.ok) problems.push(...consoleState.problems);
  const audit = auditSettings(env);
  if (!audit.ok) problems.push(...audit.problems);
  if (!listen || !ledger.ok || !consoleState.ok || !audit.ok || problems.length > 0) return { ok: false, problems };
  const notices: Notice[] = [];
  if (ledger.value.audiences.length === 0) notices.push({ level: 'warn', message: 'LEDGER_AUDIENCE is not set: the ledger refuses every token' });
  if (ledger.value.allowedOwners.size === 0) notices.push({ level: 'warn', message: 'LEDGER_ALLOWED_OWNERS is unset or empty: the ledger denies every caller' });
  if (!metricsToken(env)) notices.push({ level: 'warn', message: 'METRICS_TOKEN is not set: GET /metrics answers anyone who can reach the port' });
  if (!audit.value.token) notices.push({ level: 'info', message: 'AUDIT_TOKEN is not set: GET /v1/audit/tokens is off (404); the token audit is still written' });
  notices.push(...brokerNotices(brokerSettings(env)));
  notices.push(consoleNotice(consoleState.value));
  return { ok: true, value: { ...listen, notices } };
}
