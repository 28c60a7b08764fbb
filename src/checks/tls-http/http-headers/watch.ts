/**
 * http-headers (docs/contract/api-v1.md): the status, where the redirects lead, the response headers and
 * the security headers' coverage. Headers that differ on every response by their nature (dates, lengths,
 * caching ages, request ids, cookies carrying session ids, CDN trace headers) are left out.
 */
import { arr, memberKey, num, obj, sortedSet, str } from '../../../watch/projection.js';
import { defineWatch } from '../../../watch/watch-spec.js';

/** Headers whose value changes from one response to the next without the site changing. */
const VOLATILE_HEADERS = new Set([
  'date',
  'age',
  'expires',
  'last-modified',
  'etag',
  'set-cookie',
  'content-length',
  'connection',
  'keep-alive',
  'x-request-id',
  'request-id',
  'x-correlation-id',
  'traceparent',
  'tracestate',
  'x-amzn-requestid',
  'x-amzn-trace-id',
  'x-amz-cf-id',
  'x-amz-request-id',
  'x-amz-id-2',
  'cf-ray',
  'x-served-by',
  'x-cache',
  'x-cache-hits',
  'x-timer',
  'server-timing',
  'x-runtime',
  'x-response-time',
  'via',
  'report-to',
  'nel',
]);

export const httpHeadersWatch = defineWatch({
  tool: 'http-headers',
  project(data) {
    const headers: Record<string, string | null> = {};
    const all = obj(data.headers);
    for (const name of Object.keys(all).sort()) {
      const lower = name.toLowerCase();
      if (!VOLATILE_HEADERS.has(lower)) headers[memberKey(lower)] = str(all[name]) ?? JSON.stringify(all[name]);
    }
    const security = obj(data.security);
    return {
      statusCode: num(data.statusCode),
      finalUrl: str(data.finalUrl),
      redirectChain: arr(data.redirectChain).map((u) => str(u) ?? ''),
      httpVersion: str(data.httpVersion),
      headers,
      securityHeadersMissing: sortedSet(arr(security.missing)),
    };
  },
  ranked: [
    {
      pattern: 'statusCode',
      // an error answer is worse than a page; which error only changes
      ranking: (value) => (typeof value === 'number' ? { rank: value >= 400 ? 1 : 0, critical: false } : null),
    },
    {
      pattern: 'securityHeadersMissing',
      ranking: (value) => (Array.isArray(value) ? { rank: value.length, critical: false } : null),
    },
  ],
  assess(data) {
    const status = num(data.statusCode);
    const missing = arr(obj(data.security).missing).length;
    return {
      status: status !== null && status >= 400 ? 'warning' : missing >= 2 ? 'warning' : missing === 1 ? 'info' : 'ok',
      grade: null,
      summary: `${str(data.finalUrl) ?? '?'} answers ${status ?? '?'}, with ${missing} of the security headers missing.`,
    };
  },
});
