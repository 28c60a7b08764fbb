/**
 * http-headers and open-graph-checker: the awaiting part. The fetch goes through the
 * check context's loader (guarded hops, once per request per URL and body mode); what
 * the response means is decided by the pure modules beside this one (headers.ts,
 * open-graph.ts).
 */
import type { CheckContext } from '../../../loaders/context.js';
import { httpHeadersData, type HttpHeadersData } from '../http-headers/headers.js';
import { openGraphData, type OpenGraphCheckerData } from '../open-graph-checker/open-graph.js';

export interface RedirectNotFollowed {
  /** 'unsupported-scheme' (mailto:, ftp:, …) or 'invalid-location' (not a URL) */
  reason: 'unsupported-scheme' | 'invalid-location';
  /** the Location as the server sent it */
  location: string;
}

export interface HttpHeadersResult extends HttpHeadersData {
  /** the final response is a redirect whose Location was not followed, and why; null otherwise */
  redirectNotFollowed: RedirectNotFollowed | null;
}

export interface OpenGraphCheckerResult extends OpenGraphCheckerData {
  /**
   * The read stopped at http.maxBodyBytes before the head ended: tags after that point
   * were not seen. False when the head ended (or the document did) within the bound.
   */
  bodyCapped: boolean;
}

/** http-headers (api-v1.md rule 10): status, redirect chain, every header and the security score; the body is not read. */
export async function runHttpHeaders(ctx: CheckContext, url: URL): Promise<HttpHeadersResult> {
  const result = await ctx.fetch(url, { readBody: false });
  return { ...httpHeadersData(result), redirectNotFollowed: result.redirectNotFollowed };
}

/** open-graph-checker (api-v1.md rule 16): the og and twitter tags of the final document's head. */
export async function runOpenGraphChecker(ctx: CheckContext, url: URL): Promise<OpenGraphCheckerResult> {
  const result = await ctx.fetch(url, { readBody: 'head' });
  return { ...openGraphData(result), bodyCapped: result.bodyEnd === 'cap' };
}
