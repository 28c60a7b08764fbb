/**
 * http-headers `data` (api-v1.md) from a guarded fetch. Beyond the published fields it
 * adds (decisions: fields may be added) `httpVersion`, `redirectLimitReached` (the last
 * response was a redirect that was not followed because http.maxRedirects were used),
 * and `tlsError` (a certificate problem of the final response's connection, which the
 * fetcher reports instead of refusing: headers are worth seeing even from a site whose
 * certificate expired).
 */
import type { FetchResult } from '../../../probes/http/fetcher.js';
import type { HeaderMap } from '../../../probes/http/header-fields.js';
import { redirectChainOf } from '../../../probes/http/redirects.js';
import { scoreSecurityHeaders, type SecurityHeaderScore } from './security-headers.js';

export interface HttpHeadersData {
  requestedUrl: string;
  statusCode: number;
  statusText: string;
  /** milliseconds from the start of the fetch (first target check) to the final response's headers */
  responseTime: number;
  finalUrl: string;
  /** decisions §5: every URL that answered with a redirect, in order; [] without redirects */
  redirectChain: string[];
  /** the final response's headers */
  headers: HeaderMap;
  security: SecurityHeaderScore;
  httpVersion: '1.1' | '2';
  redirectLimitReached: boolean;
  tlsError: string | null;
}

export function httpHeadersData(result: FetchResult): HttpHeadersData {
  return {
    requestedUrl: result.requestedUrl,
    statusCode: result.final.statusCode,
    statusText: result.final.statusText,
    responseTime: result.responseTimeMs,
    finalUrl: result.finalUrl,
    redirectChain: redirectChainOf(result.hops),
    headers: { ...result.final.headers },
    security: scoreSecurityHeaders(result.final.headers, result.finalUrl),
    httpVersion: result.httpVersion,
    redirectLimitReached: result.redirectLimitReached,
    tlsError: result.tlsError,
  };
}
