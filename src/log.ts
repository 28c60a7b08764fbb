/**
 * One JSON line per event on stdout. Small on purpose: the request log carries tool, status, duration
 * and the key *id*; the key itself never reaches a log line (decisions §10).
 */
export interface Logger {
  info(event: string, fields?: Record<string, unknown>): void;
  error(event: string, fields?: Record<string, unknown>): void;
}

export function createJsonLogger(write: (line: string) => void = (l) => process.stdout.write(l)): Logger {
  const emit = (level: string, event: string, fields?: Record<string, unknown>) =>
    write(`${JSON.stringify({ time: new Date().toISOString(), level, event, ...fields })}\n`);
  return {
    info: (event, fields) => emit('info', event, fields),
    error: (event, fields) => emit('error', event, fields),
  };
}

export const silentLogger: Logger = { info() {}, error() {} };
