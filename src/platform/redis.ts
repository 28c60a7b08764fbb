/**
 * The one Redis connection of an instance (`store.redisUrl`), shared by the credit ledger and the
 * shared cache. Every command is bounded: no offline queue (a command while disconnected fails at
 * once instead of waiting for a reconnect), no re-sending of commands that were in flight when the
 * connection dropped (a charge must never be applied twice), a connect time-out and a deadline per
 * command (`run`). The client keeps reconnecting in the background with a capped back-off, so an
 * instance recovers by itself when Redis comes back; `ready()` says whether it is reachable now.
 */
import type { Redis } from 'ioredis';
import { UnavailableError } from '../errors.js';
import type { Logger } from '../log.js';

/**
 * The client library's class, loaded when a connection is made, not with this module: a process without
 * store.redisUrl (the command, docs/cli.md "Performance") never loads it. ioredis is CommonJS: Node's
 * import names its `Redis` export, the bundle (dist/) gives the module object as the default export, which
 * is the class itself.
 */
export async function loadRedisClient(): Promise<typeof Redis> {
  const library = await import('ioredis');
  return library.Redis ?? (library.default as unknown as typeof Redis);
}

/** Bound on the TCP connect (and TLS handshake for rediss://). */
export const REDIS_CONNECT_TIMEOUT_MS = 2_000;
/** Deadline of one `run`: on loopback or in a data centre a reply takes well under a millisecond. */
export const REDIS_COMMAND_TIMEOUT_MS = 1_000;
/** Reconnect back-off: 100 ms, 200 ms, … capped here, forever. */
export const REDIS_MAX_RECONNECT_DELAY_MS = 2_000;
/**
 * ioredis' own per-command time-out, a backstop far behind `run`'s deadline: it only frees commands
 * a hung server never answers. It must not be the deadline itself — see `withDeadline`.
 */
const BACKSTOP_FACTOR = 10;

export interface Readiness {
  readonly ok: boolean;
  readonly reason?: string;
}

export interface RedisConnection {
  readonly client: Redis;
  /** "host:port" (and "/db" when given) of the server: safe to show, never the password */
  readonly where: string;
  /** runs Redis commands under the command deadline; rejects with RedisTimeoutError when it passes */
  run<T>(commands: (client: Redis) => Promise<T>): Promise<T>;
  /** PING now (bounded): ok, or why not */
  ready(): Promise<Readiness>;
  /**
   * the 503 to throw when a command for `purpose` failed, e.g. "credit ledger unavailable: the shared
   * store is unreachable; …": callers read no address of ours, the log has the server and the cause
   */
  unavailable(purpose: string, cause: unknown): UnavailableError;
  /** QUIT when connected (bounded), then stop reconnecting */
  close(): Promise<void>;
}

export interface RedisConnectionOptions {
  logger: Logger;
  connectTimeoutMs?: number;
  commandTimeoutMs?: number;
}

export class RedisTimeoutError extends Error {
  constructor(readonly afterMs: number) {
    super(`no reply within ${afterMs} ms`);
    this.name = 'RedisTimeoutError';
  }
}

/**
 * Rejects when `promise` has not settled `ms` after the call. Node runs due timers BEFORE it reads
 * sockets, so after the event loop was blocked (a burst of requests, a cold start) a plain timer
 * fires although the reply already sits unread in the socket; that would turn a busy instance's
 * answered charges into spurious 503s. So when the timer fires, one I/O poll is let through
 * (setImmediate runs after it) and only a promise still pending then counts as timed out.
 */
export function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let immediate: NodeJS.Immediate | undefined;
    const timer = setTimeout(() => {
      immediate = setImmediate(() => {
        if (settled) return;
        settled = true;
        reject(new RedisTimeoutError(ms));
      });
    }, ms);
    const finish = () => {
      settled = true;
      clearTimeout(timer);
      if (immediate) clearImmediate(immediate);
    };
    promise.then(
      (value) => {
        if (settled) return;
        finish();
        resolve(value);
      },
      (error: unknown) => {
        if (settled) return;
        finish();
        reject(error);
      },
    );
  });
}

/** Where the URL points, without credentials: "127.0.0.1:6379", "redis.internal:6380/2". */
export function describeRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    const port = u.port || '6379';
    const db = u.pathname.replace(/^\/+/, '');
    return `${u.hostname}:${port}${db ? `/${db}` : ''}`;
  } catch {
    return '(unparsable redis URL)';
  }
}

/**
 * What a caller may read of a Redis failure: its kind, never an address, a port or the client library's
 * own text (which names both).
 */
export function redisFailureKind(cause: unknown): string {
  const message = cause instanceof Error ? cause.message : String(cause);
  if (cause instanceof RedisTimeoutError || message === 'Command timed out') return 'did not reply in time';
  if (cause instanceof Error && cause.name === 'ReplyError') return 'answered an error';
  if (/enableOfflineQueue|Connection is closed|ECONN|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|EAI_AGAIN|connect/i.test(message))
    return 'is unreachable';
  return 'failed';
}

/** A short description of why a Redis command failed, for the operator's log and /readyz's log line. */
export function describeRedisFailure(cause: unknown): string {
  const message = cause instanceof Error ? cause.message : String(cause);
  if (cause instanceof RedisTimeoutError) return `is unreachable (${message})`;
  if (message === 'Command timed out') return 'is unreachable (no reply)';
  if (
    /enableOfflineQueue|Connection is closed|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|EAI_AGAIN|connect/i.test(
      message,
    )
  ) {
    return `is unreachable (${message.replace("Stream isn't writeable and enableOfflineQueue options is false", 'not connected')})`;
  }
  if (cause instanceof Error && cause.name === 'ReplyError') return `answered an error (${message.slice(0, 200)})`;
  return `failed (${message.slice(0, 200)})`;
}

/**
 * Connects to Redis and resolves once the first attempt has settled (ready, or failed/timed out), so
 * an instance starting next to a healthy Redis serves its first request without a spurious 503 and
 * one starting while Redis is down starts anyway (not ready; requests fail closed until it returns).
 */
const SEE_LOG = 'the service log names the server and the cause';

export async function connectRedis(url: string, options: RedisConnectionOptions): Promise<RedisConnection> {
  const { logger } = options;
  const commandTimeoutMs = options.commandTimeoutMs ?? REDIS_COMMAND_TIMEOUT_MS;
  const connectTimeoutMs = options.connectTimeoutMs ?? REDIS_CONNECT_TIMEOUT_MS;
  const where = describeRedisUrl(url);
  const Redis = await loadRedisClient();
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: connectTimeoutMs,
    commandTimeout: commandTimeoutMs * BACKSTOP_FACTOR,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    retryStrategy: (times) => Math.min(times * 100, REDIS_MAX_RECONNECT_DELAY_MS),
  });

  // Log transitions only: ioredis emits 'error' on every failed reconnect attempt.
  let reachable: boolean | null = null;
  let lastError: string | null = null;
  client.on('error', (e: Error) => {
    lastError = e.message;
    if (reachable !== false) logger.error('redis_unreachable', { redis: where, message: e.message });
    reachable = false;
  });
  client.on('ready', () => {
    if (reachable === false) logger.info('redis_reachable', { redis: where });
    reachable = true;
    lastError = null;
  });
  /** closed on purpose (`close`): the connection's end is not an outage */
  let closing = false;
  client.on('close', () => {
    if (reachable === true && !closing) {
      lastError = 'connection closed';
      logger.error('redis_unreachable', { redis: where, message: lastError });
      reachable = false;
    }
  });

  await new Promise<void>((resolve) => {
    const timer = setTimeout(settle, connectTimeoutMs + 500);
    function settle() {
      clearTimeout(timer);
      client.off('ready', settle);
      client.off('error', settle);
      resolve();
    }
    client.once('ready', settle);
    client.once('error', settle);
    client.connect().catch(() => undefined); // failures arrive as 'error' events; the client retries
  });

  const run = <T>(commands: (c: Redis) => Promise<T>): Promise<T> => withDeadline(commands(client), commandTimeoutMs);

  // A failed command is logged with the server and the cause, at most once a second: during an outage
  // every request fails the same way, and the connection's own transitions are logged above.
  let lastFailureLoggedAt = Number.NEGATIVE_INFINITY;
  let unlogged = 0;
  const logFailure = (purpose: string, cause: unknown) => {
    const now = performance.now();
    if (now - lastFailureLoggedAt < 1_000) {
      unlogged++;
      return;
    }
    lastFailureLoggedAt = now;
    const why = client.status !== 'ready' && lastError ? `unreachable (${lastError})` : describeRedisFailure(cause);
    logger.error('redis_command_failed', { redis: where, purpose, message: why, alsoFailedSinceLastLine: unlogged });
    unlogged = 0;
  };

  return {
    client,
    where,
    run,
    async ready() {
      // /readyz answers on the public port: the reason names the kind of failure, the log the server.
      if (client.status !== 'ready') {
        return { ok: false, reason: `the shared store (Redis) is unreachable; ${SEE_LOG}` };
      }
      try {
        await run((c) => c.ping());
        return { ok: true };
      } catch (e) {
        logFailure('readiness', e);
        return { ok: false, reason: `the shared store (Redis) ${redisFailureKind(e)}; ${SEE_LOG}` };
      }
    },
    unavailable(purpose, cause) {
      logFailure(purpose, cause);
      // While disconnected the command fails locally ("not connected"): the store is unreachable.
      const kind = client.status !== 'ready' ? 'is unreachable' : redisFailureKind(cause);
      return new UnavailableError(`${purpose} unavailable: the shared store ${kind}; ${SEE_LOG}`, { cause });
    },
    async close() {
      closing = true;
      if (client.status === 'ready') await run((c) => c.quit()).catch(() => undefined);
      client.disconnect(false);
    },
  };
}
