/**
 * The per-request ping loader (decisions §9): within one request each address is pinged
 * once, so a GraphQL operation that selects ping twice for one host, and the ping part of
 * website-health-check, share one run. A live measurement: nothing is kept beyond the
 * request.
 */
import { unobserved, type ObserveUpstream } from '../platform/metrics.js';
import { createRequestLoader } from './request-loader.js';
import net from 'node:net';
import type { Config } from '../config.js';
import { runPing } from '../probes/ping/pinger.js';
import type { PingStatistics } from '../probes/ping/parse.js';

export interface PingQuestion {
  /** an address the target guard returned */
  readonly ip: string;
  /** the target as the caller named it, for a refusal message; not part of the question */
  readonly target: string;
}

export interface PingLoaders {
  /**
   * Pings one checked address with `ping.count` packets within `ping.timeoutMs`. No reply is
   * a result (status Offline); rejects with ProbeError (ping's error exit, time-out, abort),
   * UnavailableError (no ping binary) or the guard's TargetRefusedError.
   */
  ping(question: PingQuestion): Promise<PingStatistics>;
}

export interface PingLoaderDependencies {
  /** config ping: count and timeoutMs */
  readonly settings: Config['ping'];
  /** the ping executable (Services.pingPath: 'ping', or a test's stand-in) */
  readonly pingPath: string;
  readonly assertAllowed: (address: string, targetForMessage: string) => void;
  /** the request's signal */
  readonly signal: AbortSignal;
  /** metrics: each distinct ping is observed once, where the loader runs it (default: unobserved) */
  readonly observe?: ObserveUpstream;
}

export function createPingLoaders(deps: PingLoaderDependencies): PingLoaders {
  const observe = deps.observe ?? unobserved;
  // Offline (no reply) is a result, not a failure (decisions §4): told apart by outcome.
  const pings = createRequestLoader(
    (q: PingQuestion) =>
      observe(
        'ping',
        () => pingOnce(q, deps),
        (r) => r.status.toLowerCase(),
      ),
    (q) => q.ip,
  );
  return { ping: (question) => pings.load(question) };
}

async function pingOnce(question: PingQuestion, deps: PingLoaderDependencies): Promise<PingStatistics> {
  // Defence in depth: ICMP has no connected socket whose peer could be re-checked after the
  // fact, so the address is checked once more right before the packets go out.
  deps.assertAllowed(question.ip, question.target);
  const family = net.isIP(question.ip);
  if (family !== 4 && family !== 6) throw new TypeError(`ping needs an IP address, got "${question.ip}"`);
  return runPing({
    ip: question.ip,
    family,
    count: deps.settings.count,
    timeoutMs: deps.settings.timeoutMs,
    signal: deps.signal,
    pingPath: deps.pingPath,
  });
}
