import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../server/logger.js';

/** A real pino logger whose JSON lines are kept for assertions. */
export function capturedLogger(level = 'debug'): { logger: Logger; lines: () => Record<string, unknown>[]; text: () => string } {
  const raw: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      raw.push(chunk.toString('utf8'));
      done();
    },
  });
  const logger = createLogger({ level, destination });
  const text = () => raw.join('');
  const lines = () =>
    text()
      .split('\n')
      .filter((l) => l.trim().length > 0)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { logger, lines, text };
}
