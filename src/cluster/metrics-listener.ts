/**
 * The primary's metrics listener (`metrics.host`:`metrics.port`, loopback by default; docs/operations.md
 * "Metrics"): GET /metrics, the whole instance's counts (metrics-ipc.ts). Nothing else is served
 * there. With `metrics.token` set, the bearer of that token alone may read it, here as on the API port.
 */
import { createServer, type Server } from 'node:http';
import { applyHttpTimeouts } from '../http-timeouts.js';
import type { Logger } from '../log.js';
import { bearerTokenMatches, METRICS_CONTENT_TYPE } from '../platform/metrics.js';

export function createMetricsListener(exposition: () => Promise<string>, token: string | null, logger: Logger): Server {
  return applyHttpTimeouts(
    createServer((request, response) => {
      request.resume();
      const text = (status: number, body: string, headers: Record<string, string> = {}) => {
        response.writeHead(status, {
          'content-type': 'text/plain; charset=utf-8',
          'cache-control': 'no-store',
          ...headers,
        });
        response.end(body);
      };
      const path = (request.url ?? '/').split('?')[0];
      if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
        text(404, 'not found: this listener serves GET /metrics only\n');
        return;
      }
      if (token !== null && !bearerTokenMatches(request.headers.authorization, token)) {
        text(401, 'this path needs the metrics token: Authorization: Bearer <metrics.token>\n', {
          'www-authenticate': 'Bearer realm="metrics"',
        });
        return;
      }
      exposition().then(
        (body) => {
          response.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE, 'cache-control': 'no-store' });
          response.end(request.method === 'HEAD' ? undefined : body);
        },
        (e: unknown) => {
          logger.error('metrics_scrape_failed', { message: (e as Error).message });
          text(503, `the metrics could not be collected: ${(e as Error).message}\n`);
        },
      );
    }),
  );
}
