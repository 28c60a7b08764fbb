/**
 * Structured JSON logs on stdout, one line per event, written by pino:
 *   {"level":"info","time":"2026-11-22T01:00:00.000Z","requestId":"…","tool":"my-ip",…,"event":"request"}
 * The request log carries the request id, tool, status, duration and the key *id*; the key itself
 * never reaches a log line (decisions §10): paths are logged through `redactedPath`, headers are not
 * logged at all, and as a second line of defence pino censors fields that are named like a key.
 *
 * Callers see only this small interface, so tests can collect events in an array and the logging
 * library stays replaceable.
 */
import { pino, stdTimeFunctions, type DestinationStream } from 'pino';

export interface Logger {
  info(event: string, fields?: Record<string, unknown>): void;
  /** something failed that an operator should see (a 5xx answer and its reason) */
  warn(event: string, fields?: Record<string, unknown>): void;
  error(event: string, fields?: Record<string, unknown>): void;
  /** writes out buffered lines now (before process.exit) */
  flush?(): void;
}

/** Field paths censored in every line: a key passed in by mistake still prints as REDACTED. */
export const REDACTED_FIELDS = ['apiKey', 'api_key', 'key', 'headers["x-api-key"]', 'headers.authorization'];

/**
 * `write` receives whole lines (tests, benchmarks); by default lines go to stdout through pino's
 * synchronous destination (flush() is then a no-op, kept for other destinations).
 */
export function createJsonLogger(write?: (line: string) => void): Logger {
  // Synchronous writes: one write(2) per line costs a few µs, and no line is ever lost when the
  // process exits (an asynchronous destination dropped the last lines on SIGTERM now and then).
  const destination: DestinationStream = write ? { write } : pino.destination({ dest: 1, sync: true });
  const log = pino(
    {
      // No pid or hostname on every line: the process supervisor knows which instance wrote it.
      base: null,
      messageKey: 'event',
      timestamp: stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED_FIELDS, censor: 'REDACTED' },
    },
    destination,
  );
  return {
    info: (event, fields) => log.info(fields ?? {}, event),
    warn: (event, fields) => log.warn(fields ?? {}, event),
    error: (event, fields) => log.error(fields ?? {}, event),
    flush() {
      // sonic-boom's synchronous flush: process.exit() would otherwise drop the last lines.
      const stream = destination as DestinationStream & { flushSync?: () => void };
      stream.flushSync?.();
    },
  };
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
