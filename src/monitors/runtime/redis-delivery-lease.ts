/**
 * One webhook deliverer per monitor across the instances on one Redis (docs/monitors.md "Durability"):
 * a process delivers a monitor's events only while it holds the monitor's lease, a key with its own token
 * that lapses unless renewed (`SET … NX PX`, renewed at a third of its time). A process that dies, or
 * cannot reach Redis long enough, loses the lease; its `signal` aborts so it stops at once, and another
 * instance's runner takes the deliveries over (it looks for them in the undelivered index,
 * src/monitors/store/redis-monitor-keys.ts), sending the event that was cut off again with the same
 * `X-Netdiag-Event-Id`.
 */
import { randomBytes } from 'node:crypto';
import type { RedisConnection } from '../../platform/redis.js';

export interface HeldLease {
  /** aborts when the lease is lost (not renewed in time): stop delivering */
  readonly signal: AbortSignal;
  release(): Promise<void>;
}

export interface DeliveryLease {
  /** the monitor's deliveries for this process, or null while another process holds them */
  acquire(monitorId: string): Promise<HeldLease | null>;
}

/** How long a lease lasts without renewal: past it, a dead process's deliveries go to another. */
export const DELIVERY_LEASE_MS = 30_000;

const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

export function createRedisDeliveryLease(options: {
  connection: RedisConnection;
  /** the lease key of a monitor (src/monitors/store/redis-monitor-keys.ts `deliverer`) */
  key: (monitorId: string) => string;
  leaseMs?: number;
}): DeliveryLease {
  const { connection, key } = options;
  const leaseMs = options.leaseMs ?? DELIVERY_LEASE_MS;
  return {
    async acquire(monitorId) {
      const token = randomBytes(12).toString('base64url');
      const k = key(monitorId);
      const taken = await connection.run((c) => c.set(k, token, 'PX', leaseMs, 'NX'));
      if (taken !== 'OK') return null;
      const lost = new AbortController();
      let renewedAt = performance.now();
      const timer = setInterval(
        () => {
          connection
            .run((c) => c.eval(RENEW, 1, k, token, leaseMs) as Promise<number>)
            .then(
              (renewed) => {
                if (renewed === 1) renewedAt = performance.now();
                else lost.abort(new DOMException('the delivery lease was taken over', 'AbortError'));
              },
              () => {
                // Redis did not answer: stop while the lease surely holds (past half its time, the next
                // renewal may come too late), so that two processes never deliver at once
                if (performance.now() - renewedAt >= leaseMs / 2)
                  lost.abort(new DOMException('the delivery lease may lapse', 'AbortError'));
              },
            );
        },
        Math.floor(leaseMs / 3),
      );
      timer.unref();
      return {
        signal: lost.signal,
        async release() {
          clearInterval(timer);
          if (lost.signal.aborted) return;
          await connection.run((c) => c.eval(RELEASE, 1, k, token)).catch(() => undefined);
        },
      };
    },
  };
}
