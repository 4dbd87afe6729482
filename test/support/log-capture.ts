import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../server/logger.js';

/** A destination whose writes are kept, for checks on the whole text. */
export function capturedDestination(): { destination: Writable; text: () => string } {
  const raw: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      raw.push(chunk.toString('utf8'));
      done();
    },
  });
  return { destination, text: () => raw.join('') };
}

/** A real pino logger whose JSON lines are kept for assertions. */
export function capturedLogger(level = 'debug'): { logger: Logger; lines: () => Record<string, unknown>[]; text: () => string } {
  const { destination, text } = capturedDestination();
  const logger = createLogger({ level, destination });
  const lines = () =>
    text()
      .split('\n')
      .filter((l) => l.trim().length > 0)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { logger, lines, text };
}
