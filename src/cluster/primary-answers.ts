/**
 * The requests the primary answers itself (connection-router.ts): liveness probes, and every request
 * while no worker is ready. `answer` writes the response (src/web/starting.ts: /healthz 200, /readyz
 * 503, everything else 503 with Retry-After); around it, what every response of the service carries:
 * an `x-request-id`, one log line and the request counted in the metrics; an absolute-form target read as
 * its path (src/net/request-target.ts). Each answer closes its
 * connection, so that the client's next request comes in on a new one, which a ready worker takes.
 */
import type { IncomingMessage, RequestListener } from 'node:http';
import type { Logger } from '../log.js';
import type { Metrics } from '../platform/metrics.js';
import { toOriginForm } from '../net/request-target.js';
import { REQUEST_ID_HEADER, requestIdOf } from '../platform/request-id.js';

export function answeredByPrimary(answer: RequestListener, logger: Logger, metrics: Metrics): RequestListener {
  return (request, response) => {
    const started = performance.now();
    toOriginForm(request);
    const requestId = requestIdOf(headersOf(request));
    response.setHeader(REQUEST_ID_HEADER, requestId);
    response.setHeader('connection', 'close');
    // The query is left out of the log line: it may carry an api_key, and nothing here reads it.
    const path = (request.url ?? '/').split('?')[0]!;
    const tool = path === '/healthz' ? 'healthz' : path === '/readyz' ? 'readyz' : 'starting';
    response.once('finish', () => {
      const seconds = (performance.now() - started) / 1000;
      metrics.request(tool, response.statusCode, seconds);
      logger.info('request', {
        requestId,
        method: request.method,
        path,
        tool,
        status: response.statusCode,
        durationMs: Math.round(seconds * 10_000) / 10,
        keyId: null,
        answeredBy: 'primary',
      });
    });
    answer(request, response);
  };
}

/**
 * requestIdOf reads the header through a fetch Request's `headers.get`; this gives it the one header it
 * reads without building a Request (and loading the fetch implementation) in the primary.
 */
function headersOf(request: IncomingMessage): Request {
  const incoming = request.headers[REQUEST_ID_HEADER];
  const value = typeof incoming === 'string' ? incoming : null;
  return { headers: { get: (name: string) => (name === REQUEST_ID_HEADER ? value : null) } } as unknown as Request;
}
