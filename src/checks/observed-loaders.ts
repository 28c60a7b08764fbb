/**
 * Upstream metrics for the connection, HTTP and ping loaders of a CheckContext: one place per probe
 * family, outside the probes. Each distinct question is counted once per request — keyed exactly as
 * its loader de-duplicates it — however many checks of the request load it, so the counts are real
 * network questions (src/server/metrics.ts, netdiag_upstream_*).
 */
import type { ObserveUpstream, UpstreamFamily } from '../server/metrics.js';
import { httpFetchKey, type HttpFetchQuestion, type HttpLoaders } from './http/loaders.js';
import type { PingLoaders } from './ping/loader.js';
import { tcpQuestionKey, tlsQuestionKey, type ConnectionLoaders } from './tls/loaders.js';

/**
 * `load` observed once per key: the first call of a key runs it under `observe`, later calls get the
 * same promise. Lives as long as the request's loaders.
 */
export function observedOnce<Q, R>(
  observe: ObserveUpstream,
  family: UpstreamFamily,
  key: (question: Q) => string,
  load: (question: Q) => Promise<R>,
  outcomeOf?: (answer: R) => string,
): (question: Q) => Promise<R> {
  const asked = new Map<string, Promise<R>>();
  return (question) => {
    const k = key(question);
    let answer = asked.get(k);
    if (!answer) asked.set(k, (answer = observe(family, () => load(question), outcomeOf)));
    return answer;
  };
}

export function observeConnectionLoaders(loaders: ConnectionLoaders, observe: ObserveUpstream): ConnectionLoaders {
  return {
    tlsHandshake: observedOnce(observe, 'tls', tlsQuestionKey, loaders.tlsHandshake),
    // open, closed and filtered are all answers (port-checker results), told apart by outcome
    tcpProbe: observedOnce(observe, 'tcp', tcpQuestionKey, loaders.tcpProbe, (r) => r.state),
  };
}

export function observeHttpLoaders(loaders: HttpLoaders, observe: ObserveUpstream): HttpLoaders {
  const fetchOnce = observedOnce(observe, 'http', httpFetchKey, (q: HttpFetchQuestion) =>
    loaders.fetch(q.url, { readBody: q.readBody }),
  );
  return { fetch: (url, options) => fetchOnce({ url, readBody: options.readBody }) };
}

export function observePingLoaders(loaders: PingLoaders, observe: ObserveUpstream): PingLoaders {
  // Offline (no reply) is a result, not a failure (decisions §4)
  return { ping: observedOnce(observe, 'ping', (q) => q.ip, loaders.ping, (r) => r.status.toLowerCase()) };
}
