/**
 * The per-request HTTP fetch loader (decisions §9): within one request each distinct
 * fetch — (URL without its fragment, body mode) — runs once, so a GraphQL operation that
 * selects http-headers twice, and the composite website-health-check (whose http,
 * redirects, security, protocol and compression parts all read one fetch), reuse the
 * answer. A live measurement: nothing is kept beyond the request.
 *
 * The fetcher (src/probes/http/fetcher.ts) puts every hop, the requested URL and each redirect
 * target, through the target guard and re-checks each socket's remote address, so
 * nothing here connects to a caller's target by itself.
 */
import { unobserved, type ObserveUpstream } from '../platform/metrics.js';
import { createRequestLoader } from './request-loader.js';
import type { Config } from '../config.js';
import type { TargetGuard } from '../probes/guard.js';
import { fetchGuarded, type ConnectionAllowance, type FetchOptions, type FetchResult } from '../probes/http/fetcher.js';
import type { ConnectionSettings } from '../probes/tls/settings.js';
import { createHeadEndDetector } from '../probes/http/head-end.js';
import { requestKey } from '../probes/http/redirects.js';

/**
 * What of the final response's body a fetch reads:
 * - `false`: nothing (headers, status and redirects only; the body is never read);
 * - `'head'`: an HTML (or untyped) body up to the end of its head (`</head>` or `<body>`),
 *   at most `http.maxBodyBytes` bytes, for the tags of the head (open-graph-checker);
 * - `'document'`: an HTML (or untyped) body whole, at most `http.maxBodyBytes` bytes (http-rating's
 *   scripts and metas, which may stand anywhere in the document).
 */
export type FetchBodyMode = false | 'head' | 'document';

/**
 * A document fetched as a mail policy check reads it (MTA-STS policy, BIMI SVG): redirects are not
 * followed (RFC 8461 §3.3: "HTTP 3xx redirects MUST NOT be followed"), the body is read whatever its
 * type, up to `maxBytes`: the document's own limit (MTA-STS 64 KiB, BIMI 32 KiB), which the checks'
 * findings name, rather than config http.maxBodyBytes (the bound of page bodies).
 */
export interface DocumentFetchOptions {
  readonly maxBytes: number;
}

export interface HttpFetchQuestion {
  /** the caller's http or https URL (the validation module's parseUrl output), or one derived from it */
  readonly url: URL;
  readonly readBody: FetchBodyMode;
}

export interface HttpLoaders {
  /**
   * One guarded fetch with manual redirects, once per request per (URL, body mode).
   * Rejects with ProbeError (TIMEOUT and ABORTED → 504, the rest 502), TargetRefusedError
   * for a hop the target rules refuse, or InputError (parameter `url`) for a name without addresses.
   */
  fetch(url: URL, options: { readBody: FetchBodyMode }): Promise<FetchResult>;
  /**
   * One guarded fetch of a document (DocumentFetchOptions), once per request per (URL, cap). The
   * result's `body` is the body (null for a response without one), `bodyEnd` 'cap' when cut; a
   * redirect is the result itself (`redirectLimitReached`). Rejects as `fetch` does.
   */
  fetchDocument(url: URL, options: DocumentFetchOptions): Promise<FetchResult>;
  /**
   * One guarded CORS preflight (Fetch §4.8: OPTIONS with `Origin` and `Access-Control-Request-Method: GET`)
   * with redirects followed as `fetch` follows them, the body not read; once per request per (URL, origin).
   * Rejects as `fetch` does.
   */
  preflight(url: URL, origin: string): Promise<FetchResult>;
}

export interface HttpLoaderDependencies {
  /** config http: timeoutMs (the whole fetch, redirects included), maxRedirects, maxBodyBytes */
  readonly http: Config['http'];
  /** trust anchors (tests: the lab root) and the TCP connect and TLS handshake bounds */
  readonly connections: ConnectionSettings;
  readonly guard: TargetGuard;
  /** the request's connections to targets (connection-budget.ts): each connect attempt of a hop spends one */
  readonly budget: ConnectionAllowance;
  /** the request's signal */
  readonly signal: AbortSignal;
  /** metrics: each distinct fetch is observed once, where the loader asks it (default: unobserved) */
  readonly observe?: ObserveUpstream;
}

/** The identity of a fetch: the body mode and the URL as requested, fragment dropped (it is never sent). */
export function httpFetchKey(question: HttpFetchQuestion): string {
  return `${question.readBody === false ? 'no-body' : question.readBody} ${requestKey(question.url)}`;
}

export function createHttpLoaders(deps: HttpLoaderDependencies): HttpLoaders {
  const observe = deps.observe ?? unobserved;
  const fetches = createRequestLoader(
    (q: HttpFetchQuestion) => observe('http', () => fetchOnce(q, deps)),
    httpFetchKey,
  );
  const documents = createRequestLoader(
    (q: { url: URL; maxBytes: number }) => observe('http', () => fetchDocumentOnce(q, deps)),
    (q) => `document ${q.maxBytes} ${requestKey(q.url)}`,
  );
  const preflights = createRequestLoader(
    (q: { url: URL; origin: string }) => observe('http', () => preflightOnce(q, deps)),
    (q) => `preflight ${q.origin} ${requestKey(q.url)}`,
  );
  return {
    fetch: (url, options) => fetches.load({ url, readBody: options.readBody }),
    fetchDocument: (url, options) => documents.load({ url, maxBytes: options.maxBytes }),
    preflight: (url, origin) => preflights.load({ url, origin }),
  };
}

function fetchOnce(question: HttpFetchQuestion, deps: HttpLoaderDependencies): Promise<FetchResult> {
  return fetchWith(deps, question.url, {
    urlFrom: 'caller',
    maxRedirects: deps.http.maxRedirects,
    maxBodyBytes: deps.http.maxBodyBytes,
    readBody: question.readBody === false ? false : 'html',
    // A fresh detector per fetch: it keeps the tokeniser's state across chunks.
    ...(question.readBody === 'head' ? { stopWhen: createHeadEndDetector() } : {}),
  });
}

function preflightOnce(question: { url: URL; origin: string }, deps: HttpLoaderDependencies): Promise<FetchResult> {
  return fetchWith(deps, question.url, {
    urlFrom: 'caller',
    maxRedirects: deps.http.maxRedirects,
    maxBodyBytes: deps.http.maxBodyBytes,
    readBody: false,
    method: 'OPTIONS',
    requestHeaders: { origin: question.origin, 'access-control-request-method': 'GET' },
  });
}

function fetchDocumentOnce(question: { url: URL; maxBytes: number }, deps: HttpLoaderDependencies) {
  return fetchWith(deps, question.url, {
    // a policy, a logo or an issuer is fetched from a URL an answer gave (a record, a certificate)
    urlFrom: 'upstream',
    maxRedirects: 0,
    maxBodyBytes: question.maxBytes,
    readBody: 'any',
    // a policy or a logo is judged as stored: no content coding to undo or to be told about
    acceptEncoding: '',
  });
}

/** The guarded fetcher with the request's guard, signal, whole-fetch bound and connection settings. */
function fetchWith(
  deps: HttpLoaderDependencies,
  url: URL,
  options: Pick<
    FetchOptions,
    | 'urlFrom'
    | 'maxRedirects'
    | 'maxBodyBytes'
    | 'readBody'
    | 'stopWhen'
    | 'acceptEncoding'
    | 'method'
    | 'requestHeaders'
  >,
): Promise<FetchResult> {
  const { http, connections } = deps;
  return fetchGuarded({
    url,
    guard: deps.guard,
    connections: deps.budget,
    timeoutMs: http.timeoutMs,
    ...options,
    signal: deps.signal,
    ...(connections.tlsCa !== undefined ? { ca: connections.tlsCa } : {}),
    connectTimeoutMs: connections.connectTimeoutMs,
    tlsTimeoutMs: connections.handshakeTimeoutMs,
  });
}
