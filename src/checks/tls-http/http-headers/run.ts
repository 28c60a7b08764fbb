/** http-headers: the awaiting part, one guarded fetch through the check context. */
import type { CheckContext } from '../../../loaders/context.js';
import { httpHeadersData, type HttpHeadersData } from './headers.js';

export interface HttpHeadersResult extends HttpHeadersData {
  /** the final response is a redirect whose Location was not followed, and why; null otherwise */
  redirectNotFollowed: RedirectNotFollowed | null;
}

/** http-headers (api-v1.md rule 10): status, redirect chain, every header and the security score; the body is not read. */
export async function runHttpHeaders(ctx: CheckContext, url: URL): Promise<HttpHeadersResult> {
  const result = await ctx.fetch(url, { readBody: false });
  return { ...httpHeadersData(result), redirectNotFollowed: result.redirectNotFollowed };
}

export interface RedirectNotFollowed {
  /** 'unsupported-scheme' (mailto:, ftp:, …) or 'invalid-location' (not a URL) */
  reason: 'unsupported-scheme' | 'invalid-location';
  /** the Location as the server sent it */
  location: string;
}
