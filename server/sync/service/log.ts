import { pino, type DestinationStream } from 'pino';
import { createLogger, type Logger } from '../../logger.js';
import { SECRET_SETTINGS, type LoadedConfig } from '../config.js';
import { scrub, secretValues } from '../run.js';

/**
 * Every configured secret value, as it appears in the text and inside a JSON string (a quote or
 * backslash in it is escaped there), longest first so a secret containing another is replaced whole.
 */
function forms(secrets: readonly string[]): string[] {
  const all = secrets.flatMap((s) => [s, JSON.stringify(s).slice(1, -1)]);
  return [...new Set(all)].filter((s) => s.length > 0).sort((a, b) => b.length - a.length);
}

/**
 * A destination that replaces every secret value in each serialised line before it is written:
 * the service's counterpart of the CLI scrubbing its stdout and stderr. An upstream that echoes a
 * credential into an error body reaches a run's reasons, its summary and any error logged, and
 * the line is the one place they all pass through.
 */
function scrubbingDestination(destination: DestinationStream, secrets: readonly string[]): DestinationStream {
  const values = forms(secrets);
  if (values.length === 0) return destination;
  return { write: (line: string) => destination.write(scrub(line, values)) };
}

/**
 * The secrets a service process knows: from the loaded configuration, or (when it is invalid)
 * the raw values of the secret settings, and the trigger token.
 */
export function serviceSecrets(loaded: LoadedConfig | undefined, env: Readonly<Record<string, string | undefined>>): string[] {
  const raw = [...SECRET_SETTINGS, 'SYNC_TRIGGER_TOKEN', 'SYNC_DEPENDENCY_TRACK_WEBHOOK_SECRET'].map((name) => env[name]?.trim()).filter((v): v is string => !!v);
  return [...(loaded ? secretValues(loaded) : []), ...raw];
}

/** The service's logger: JSON lines on stdout (or `destination`), scrubbed of `secrets`. */
export function serviceLogger(options: { level: string; secrets: readonly string[]; destination?: DestinationStream }): Logger {
  const destination = options.destination ?? pino.destination({ dest: 1, sync: true });
  return createLogger({ level: options.level, service: 'gatehouse-sync', destination: scrubbingDestination(destination, options.secrets) });
}
