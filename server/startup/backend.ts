import { MongoClient } from 'mongodb';
import { parseBrokerSettings } from '../broker/settings.js';
import { brokerNotices } from '../broker/status.js';
import type { ConfigError, Env } from '../config-error.js';
import { checkConsoleSettings, consoleNotice } from '../console/settings.js';
import { checkAuditSettings } from '../audit/settings.js';
import { checkLedgerSettings } from '../ledger/settings.js';
import { STORE_APP_NAME } from '../store/mongo.js';
import { mongoUriProblem } from '../store/mongo-uri.js';
import { checkListenSettings, type ListenSettings, type Notice, type StartupCheck } from './checks.js';

export interface BackendStartup extends ListenSettings {
  readonly notices: readonly Notice[];
}

/**
 * Everything the backend (ledger + broker + webhook) checks before it starts, every problem at
 * once: PORT, HOST, LOG_LEVEL, the syntax of MONGODB_URI (never whether the server answers: the
 * store connects lazily), every ledger setting and the console's (all four of its switches, or none). Broker settings never stop the process (each
 * only disables the routes that need it): they come back as notices.
 */
export function checkBackendStartup(env: Env): StartupCheck<BackendStartup> {
  const problems: ConfigError[] = [];
  const listen = checkListenSettings(env, problems);
  const uri = env.MONGODB_URI?.trim();
  const mongo = uri ? mongoUriProblem(uri, MongoClient, STORE_APP_NAME) : undefined;
  if (mongo) problems.push(mongo);
  const ledger = checkLedgerSettings(env);
  if (!ledger.ok) problems.push(...ledger.problems);
  const consoleState = checkConsoleSettings(env);
  if (!consoleState.ok) problems.push(...consoleState.problems);
  const audit = checkAuditSettings(env);
  if (!audit.ok) problems.push(...audit.problems);
  if (!listen || !ledger.ok || !consoleState.ok || problems.length > 0) return { ok: false, problems };
  const notices: Notice[] = [];
  if (ledger.value.audiences.length === 0) notices.push({ level: 'warn', message: 'LEDGER_AUDIENCE is not set: the ledger refuses every token' });
  if (ledger.value.allowedOwners.size === 0) notices.push({ level: 'warn', message: 'LEDGER_ALLOWED_OWNERS is unset or empty: the ledger denies every caller' });
  if (!env.METRICS_TOKEN?.trim()) notices.push({ level: 'warn', message: 'METRICS_TOKEN is not set: GET /metrics answers anyone who can reach the port' });
  if (!env.AUDIT_TOKEN?.trim()) notices.push({ level: 'info', message: 'AUDIT_TOKEN is not set: GET /v1/audit/tokens is off (404); the token audit is still written' });
  notices.push(...brokerNotices(parseBrokerSettings(env)));
  notices.push(consoleNotice(consoleState.value));
  return { ok: true, value: { ...listen, notices } };
}
