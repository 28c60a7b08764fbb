/**
 * The report's routes: the page at /report (counted against the budget for requests without a key, as
 * every page is, in src/app.ts), and what the app asks before running a GraphQL operation without a key:
 * whether it is a report's operation that `web.publicReports` lets run, and at what price.
 */
import type { Config } from '../../config.js';
import type { RestRoute } from '../../rest/routes.js';
import type { WebAssets } from '../assets.js';
import { reportOperations } from './operation.js';
import { MAX_DOMAIN_LENGTH, REPORT_PATH, renderReportPage, reportHeaders } from './page.js';
import { isReportView, type ReportView } from './sections.js';

export interface ReportRoutes {
  matches(pathname: string): boolean;
  page(request: Request, url: URL): Response;
  /**
   * For a GraphQL body sent without a key: the credits a public report costs (charged to the caller's
   * address by the app), or null when the body is not a report's operation or reports need a key.
   */
  publicReportPrice(body: unknown): number | null;
}

/** A pasted address (`https://example.com/path`) stands for its host; anything else is left to the checks to judge. */
function hostOf(input: string): string {
  if (!input.includes('://')) return input;
  try {
    return new URL(input).hostname || input;
  } catch {
    return input;
  }
}

export function createReportRoutes(deps: {
  config: Config;
  assets: WebAssets;
  routes: ReadonlyMap<string, RestRoute>;
  costOf: (tool: string) => number;
}): ReportRoutes {
  const operations = reportOperations(deps.routes);
  return {
    matches: (pathname) => pathname === REPORT_PATH || pathname === `${REPORT_PATH}/`,
    page(request, url) {
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        return new Response('use GET\n', {
          status: 405,
          headers: { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' },
        });
      }
      const domain = hostOf((url.searchParams.get('domain') ?? '').trim()).slice(0, MAX_DOMAIN_LENGTH);
      const asked = url.searchParams.get('view');
      const view: ReportView = isReportView(asked) ? asked : 'all';
      const body = renderReportPage({
        assets: deps.assets,
        domain,
        view,
        operation: operations.text(view),
        publicReports: deps.config.web.publicReports,
      });
      return new Response(request.method === 'HEAD' ? null : body, { headers: reportHeaders(body) });
    },
    publicReportPrice(body) {
      if (!deps.config.web.publicReports || typeof body !== 'object' || body === null) return null;
      const view = operations.viewOf((body as { query?: unknown }).query);
      return view ? operations.price(view, deps.costOf) : null;
    },
  };
}
