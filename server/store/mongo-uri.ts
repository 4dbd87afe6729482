import type { MongoClientOptions } from 'mongodb';
import { ConfigError } from '../config-error.js';
import { mongoClientOptions } from './mongo-options.js';

/** The driver's client class, passed in: the sync service loads the driver only when MONGODB_URI is set. */
export type MongoClientClass = new (uri: string, options?: MongoClientOptions) => unknown;

const REDACTED = '[redacted]';
/** Query options whose values may be credentials (authMechanismProperties, tlsCertificateKeyFilePassword, proxyPassword, …). */
const SECRET_OPTION = /pass|token|secret|key|properties|credential/i;
/** Shorter pieces are not replaced inside words (that would garble the message): a short user or password withholds it. */
const MIN_REPLACED = 3;

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Every piece of `uri` never shown: the URI itself; everything before its last `@` (user and
 * password, whatever the password holds, even an unescaped `/` or `@`), the user and the password
 * alone; the host list and each host (a password typed where a host goes, `user@password:port`,
 * would be quoted as a host); the values of options that may carry secrets. Each raw and
 * percent-decoded, longest first. Option names and other values stay: they say what is wrong.
 */
export function hiddenParts(uri: string): string[] {
  const parts = [uri];
  const scheme = uri.indexOf('://');
  const rest = scheme >= 0 ? uri.slice(scheme + 3) : uri;
  const at = rest.lastIndexOf('@');
  if (at >= 0) {
    const userinfo = rest.slice(0, at);
    const colon = userinfo.indexOf(':');
    parts.push(userinfo, ...(colon >= 0 ? [userinfo.slice(0, colon), userinfo.slice(colon + 1)] : []));
  }
  const hosts = rest.slice(at + 1).split(/[/?]/)[0] ?? '';
  // A host too short to replace is left: it is no credential, and withholding every message for it would help no one.
  parts.push(...[hosts, ...hosts.split(',')].filter((h) => h.length >= MIN_REPLACED));
  const query = rest.indexOf('?', at + 1);
  if (query >= 0) {
    for (const pair of rest.slice(query + 1).split('&')) {
      const [name = '', value = ''] = pair.split(/=(.*)/s);
      if (SECRET_OPTION.test(name)) parts.push(value, ...value.split(/[,:]/).filter((p) => p.length >= MIN_REPLACED));
    }
  }
  const all = [...parts, ...parts.map(decoded)].filter((p) => p.length > 0);
  return [...new Set(all)].sort((a, b) => b.length - a.length);
}

/** The driver's message with every hidden part replaced; undefined when it cannot be shown safely. */
export function redactedMessage(message: string, uri: string): string | undefined {
  let text = message.replace(/\s+/g, ' ').trim();
  for (const part of hiddenParts(uri)) {
    if (part.length >= MIN_REPLACED) text = text.split(part).join(REDACTED);
    else if (text.includes(part)) return undefined;
  }
  return text;
}

/**
 * Whether the driver accepts `uri` with the options the store or the locks will give it: the
 * check is the driver's own (its constructor parses and validates, and connects only on first
 * use, so an unreachable server is not a problem here). The problem quotes the driver's
 * message without the URI, its credentials or its hosts.
 */
export function mongoUriProblem(uri: string, Client: MongoClientClass, appName: string): ConfigError | undefined {
  try {
    new Client(uri, mongoClientOptions(uri, appName));
    return undefined;
  } catch (err) {
    const message = redactedMessage(err instanceof Error ? err.message : String(err), uri);
    return new ConfigError(
      'MONGODB_URI',
      `is not a connection string the MongoDB driver accepts: ${message ?? "the driver's message is withheld because it may quote a credential"}`,
    );
  }
}
