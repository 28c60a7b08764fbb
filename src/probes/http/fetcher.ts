/**
 * The guarded HTTP fetcher behind http-headers, open-graph-checker and the website
 * health check.
 *
 * Every hop (the requested URL and each redirect target) is checked by the target
 * guard, and the connection goes to an address the guard returned, never to a fresh
 * resolution of the name (decisions §7: DNS rebinding gets nowhere). The connection is
 * opened by connection.ts (TCP, the after-connect re-check of the remote address,
 * then TLS with SNI and certificate checks against the hostname) and handed to an
 * undici Client that may use only that socket; body.ts reads and decodes the body.
 *
 * Decisions documented here:
 * - Redirects (301, 302, 303, 307, 308 with a Location) are followed by hand, with GET
 *   (or the method asked for, kept except after 303), at most `maxRedirects` times.
 *   When the limit is used up and the response is yet another redirect, that response
 *   is the result with `redirectLimitReached`: the chain so far is the finding. A
 *   redirect back to a URL already requested is a loop and fails with ProbeError
 *   HTTP_STATUS naming the loop. A Location that is not http(s) or not a URL is not
 *   followed: that response is the result, with `redirectNotFollowed` saying why.
 * - Certificates: the handshake does not reject an untrusted or mismatched certificate
 *   (certificateErrors 'report', the default): a user asking for the headers of a site
 *   whose certificate expired still gets them, and `tlsError` names the problem
 *   (OpenSSL's code, e.g. CERT_HAS_EXPIRED, or ERR_TLS_CERT_ALTNAME_INVALID).
 *   certificateErrors 'fail' turns that into ProbeError TLS. A failed handshake is
 *   always ProbeError TLS.
 * - Content codings: gzip, deflate and br are offered (the website health check reports
 *   the coding) and decoded when the body is read; `maxBodyBytes` bounds both the bytes
 *   received and the decoded bytes kept.
 * - HTTP/2 is offered through ALPN on https (undici's allowH2); `httpVersion` says
 *   what was used. HTTP/2 has no reason phrase (RFC 9113 §8.3.2): statusText is then
 *   the standard phrase for the code.
 * - The whole fetch, redirects included, ends within `timeoutMs` (decisions §8: 10 s)
 *   with ProbeError TIMEOUT naming the host being talked to; the caller's signal ends
 *   it with ABORTED. One TCP connect is bounded by `connectTimeoutMs` (5 s) and one TLS
 *   handshake by `tlsTimeoutMs` (5 s); a TCP failure moves on to the next checked
 *   address.
 *
 * Timings of a hop (milliseconds, 0.1 ms resolution): dnsMs is the guard's check
 * (resolution included), tcpMs the TCP connect of the address used, tlsMs the TLS
 * handshake (0 over http), ttfbMs from sending the request to the response headers,
 * totalMs from the start of the hop to its end (the headers, or the body when read).
 */
import { STATUS_CODES } from 'node:http';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import type tls from 'node:tls';
import { Client } from 'undici';
import type { Dispatcher } from 'undici';
import { isHtmlContentType } from './content-type.js';
import { normaliseHeaderFields, pairRawHeaders, type HeaderMap } from './header-fields.js';
import { decideRedirect, requestKey, resolvedLocation, type RedirectDecision } from './redirects.js';
import { Deadline } from '../../deadline.js';
import { decidedAfterUpstream } from '../../errors.js';
import type { HostOrIp } from '../../validation.js';
import { ProbeError } from '../errors.js';
import type { TargetGuard, TargetOrigin } from '../guard.js';
import { BodyCollector, type BodyEnd } from './body.js';
import { openConnection, type FetchBound, type HopTls } from './connection.js';

export type { BodyEnd } from './body.js';
export type { HopTls } from './connection.js';

export interface FetchOptions {
  url: URL;
  /**
   * who gave `url` (guard.ts TargetOrigin): 'caller' only for the request's own argument, whose refused
   * address literal is then given its price back; default 'upstream'. Redirect targets are always upstream.
   */
  urlFrom?: TargetOrigin;
  guard: TargetGuard;
  /**
   * the request's connections to targets (src/loaders/connection-budget.ts): each connect attempt spends
   * one; with none left a redirect is not followed, and the chain so far is the result (redirectLimitReached)
   */
  connections?: ConnectionAllowance;
  /** bound of the whole fetch, redirects included (config http.timeoutMs) */
  timeoutMs: number;
  /** config http.maxRedirects */
  maxRedirects: number;
  /** config http.maxBodyBytes: at most this many bytes are received and kept */
  maxBodyBytes: number;
  /**
   * 'html': read the final response's body when it is HTML (or untyped); 'any': read it whatever its
   * type (a policy file, an image: the caller judges the type); false: never
   */
  readBody: false | 'html' | 'any';
  signal?: AbortSignal;
  userAgent?: string;
  /** trust anchors for https (tests: the lab's root); default Node's store + NODE_EXTRA_CA_CERTS */
  ca?: string | Buffer | Array<string | Buffer>;
  /** stop reading the body once this returns true for the decoded bytes so far (called per chunk) */
  stopWhen?: (chunk: Buffer) => boolean;
  /** bound of one TCP connect (decisions §8: 5 s) */
  connectTimeoutMs?: number;
  /** bound of one TLS handshake (decisions §8: 5 s) */
  tlsTimeoutMs?: number;
  /** 'report' (default): fetch anyway and report tlsError; 'fail': ProbeError TLS */
  certificateErrors?: 'report' | 'fail';
  /** offer HTTP/2 through ALPN (default true) */
  http2?: boolean;
  /** the Accept-Encoding request header; '' sends none (default 'gzip, deflate, br') */
  acceptEncoding?: string;
  /**
   * the method of the first request (default GET); a redirect keeps it, except 303, after which the
   * request is a GET (RFC 9110 §15.4.4). http-rating sends a CORS preflight (OPTIONS) this way.
   */
  method?: 'GET' | 'OPTIONS' | 'POST';
  /** the body of a POST (a job's callback, src/rest/jobs/callback.ts); not sent again after a 303 */
  body?: Buffer;
  /** more request fields, sent on every hop (a CORS preflight's Origin and Access-Control-Request-Method) */
  requestHeaders?: Readonly<Record<string, string>>;
}

/** What the fetcher needs of a connection budget: spend one (throwing when none is left), and how many are left. */
export interface ConnectionAllowance {
  spend(what: string): void;
  readonly remaining: number;
}

export interface HopTiming {
  dnsMs: number;
  tcpMs: number;
  tlsMs: number;
  ttfbMs: number;
  totalMs: number;
}

export interface FetchHop {
  url: string;
  statusCode: number;
  statusText: string;
  headers: HeaderMap;
  /** the Location resolved against `url` (as sent when it does not resolve); null without one */
  location: string | null;
  remoteAddress: string;
  httpVersion: '1.1' | '2';
  tls: HopTls | null;
  timing: HopTiming;
}

export interface FetchResult {
  requestedUrl: string;
  finalUrl: string;
  /** every final (non-1xx) response, in order */
  hops: FetchHop[];
  final: FetchHop;
  /** decoded body of the final response; null when not read (readBody false, not HTML) */
  body: Buffer | null;
  /** the body is not the whole document (cap reached or stopWhen) */
  bodyTruncated: boolean;
  bodyEnd: BodyEnd | null;
  httpVersion: '1.1' | '2';
  /** from the start to the final response's headers, or to the body's end when read */
  responseTimeMs: number;
  redirectLimitReached: boolean;
  redirectNotFollowed: { reason: 'unsupported-scheme' | 'invalid-location'; location: string } | null;
  /** the final connection's certificate problem, null when trusted or over http */
  tlsError: string | null;
}

const DEFAULT_USER_AGENT = 'Mozilla/5.0 (compatible; netdiag/0.1; +https://github.com/netdiag)';
const DEFAULT_ACCEPT_ENCODING = 'gzip, deflate, br';
const DEFAULT_CONNECT_TIMEOUT_MS = 5000;
const DEFAULT_TLS_TIMEOUT_MS = 5000;
/** response header block bound; Node's own default (16 KiB) is too small for some cookie-heavy sites */
const MAX_HEADER_BYTES = 64 * 1024;

const ignore = (): void => {};
const roundMs = (ms: number): number => Math.round(ms * 10) / 10;

export async function fetchGuarded(opts: FetchOptions): Promise<FetchResult> {
  if (opts.url.protocol !== 'http:' && opts.url.protocol !== 'https:') {
    throw new TypeError(`fetchGuarded takes http and https URLs only, not ${opts.url.protocol}`);
  }
  const started = performance.now();
  const deadline = new Deadline(opts.timeoutMs, opts.signal);
  const bound = fetchBound(deadline);
  const hops: FetchHop[] = [];
  const requested: string[] = [];
  let url = new URL(opts.url.href);
  let method = opts.method ?? 'GET';
  try {
    for (;;) {
      requested.push(requestKey(url));
      const redirectsLeft = opts.maxRedirects - hops.length;
      const hopUrl = url;
      const origin: TargetOrigin = hops.length === 0 ? (opts.urlFrom ?? 'upstream') : 'upstream';
      const exchange = await fetchHop(hopUrl, origin, method, opts, bound, (statusCode, headers) => {
        const decision = decideRedirect(hopUrl, statusCode, headers.location ?? null);
        const follows = decision.kind === 'follow' && redirectsLeft > 0 && connectionLeft(opts);
        if (follows || opts.readBody === false) return false;
        return opts.readBody === 'any' || isHtmlContentType(headers['content-type']);
      });
      hops.push(exchange.hop);
      const decision: RedirectDecision = decideRedirect(
        hopUrl,
        exchange.hop.statusCode,
        exchange.hop.headers.location ?? null,
      );
      if (decision.kind === 'follow' && redirectsLeft > 0 && connectionLeft(opts)) {
        const nextKey = requestKey(decision.url);
        const loopStart = requested.indexOf(nextKey);
        if (loopStart !== -1) {
          const loop = [...requested.slice(loopStart), nextKey].join(' → ');
          throw new ProbeError('HTTP_STATUS', upstreamOf(hopUrl), `redirect loop: ${loop}`);
        }
        url = decision.url;
        if (exchange.hop.statusCode === 303) method = 'GET';
        continue;
      }
      const final = exchange.hop;
      return {
        requestedUrl: opts.url.href,
        finalUrl: final.url,
        hops,
        final,
        body: exchange.body,
        bodyTruncated: exchange.bodyEnd === 'cap' || exchange.bodyEnd === 'stopped',
        bodyEnd: exchange.bodyEnd,
        httpVersion: final.httpVersion,
        responseTimeMs: roundMs(performance.now() - started),
        redirectLimitReached: decision.kind === 'follow',
        redirectNotFollowed:
          decision.kind === 'unsupported-scheme' || decision.kind === 'invalid-location'
            ? { reason: decision.kind, location: decision.location }
            : null,
        tlsError: final.tls?.authorizationError ?? null,
      };
    }
  } catch (e) {
    // Past the first hop something was sent upstream: a refusal met there is charged (decisions §1).
    if (hops.length > 0) decidedAfterUpstream(e);
    throw deadline.explain(e, () => bound.error(upstreamOf(url)));
  } finally {
    deadline.release();
  }
}

/** Whether the request may open another connection for a redirect hop (no budget: always). */
function connectionLeft(opts: FetchOptions): boolean {
  return opts.connections === undefined || opts.connections.remaining > 0;
}

/** "host:port" naming the server of a URL in errors. */
function upstreamOf(url: URL): string {
  return `${url.hostname}:${portOf(url)}`;
}

function portOf(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/** The URL's host as the guard takes it: IP literals without brackets, names without a trailing dot. */
function targetOf(url: URL): HostOrIp {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const family = net.isIP(host);
  if (family === 4 || family === 6) return { kind: 'ip', ip: host, family };
  return { kind: 'hostname', hostname: host.replace(/\.$/, '') };
}

/**
 * The fetch's end-to-end bound as the connection and the exchange see it. Once it has fired, whatever
 * failed failed because of it: every error is then TIMEOUT or ABORTED.
 */
function fetchBound(deadline: Deadline): HopBound {
  const error = (upstream: string): ProbeError =>
    deadline.timedOut()
      ? new ProbeError('TIMEOUT', upstream, `no complete answer from ${upstream} within ${deadline.ms} ms`)
      : new ProbeError('ABORTED', upstream, `the fetch from ${upstream} was aborted`);
  return {
    signal: deadline.signal,
    remainingMs: () => deadline.remainingMs(),
    error,
    race: (work, upstream) => deadline.race(work, () => error(upstream)),
  };
}

interface HopBound extends FetchBound {
  /** `work`'s outcome, or the bound's error as soon as it fires (for work that may ignore the signal) */
  race<T>(work: Promise<T>, upstream: string): Promise<T>;
}

interface HopExchange {
  hop: FetchHop;
  body: Buffer | null;
  bodyEnd: BodyEnd | null;
}

type WantsBody = (statusCode: number, headers: HeaderMap) => boolean;

async function fetchHop(
  url: URL,
  origin: TargetOrigin,
  method: 'GET' | 'OPTIONS' | 'POST',
  opts: FetchOptions,
  bound: HopBound,
  wantsBody: WantsBody,
): Promise<HopExchange> {
  const hopStarted = performance.now();
  const upstream = upstreamOf(url);
  const target = targetOf(url);
  const checked = await bound.race(opts.guard.check(target, bound.signal, 'url', origin), upstream);
  const dnsMs = performance.now() - hopStarted;
  const connection = await openConnection({
    addresses: checked.addresses,
    port: portOf(url),
    upstream,
    secure: url.protocol === 'https:',
    servername: target.kind === 'hostname' ? target.hostname : null,
    targetForMessage: url.hostname,
    guard: opts.guard,
    ...(opts.connections ? { connections: opts.connections } : {}),
    bound,
    connectTimeoutMs: opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    tlsTimeoutMs: opts.tlsTimeoutMs ?? DEFAULT_TLS_TIMEOUT_MS,
    ca: opts.ca,
    http2: opts.http2 !== false,
    certificateErrors: opts.certificateErrors ?? 'report',
  });
  try {
    const response = await exchange(connection.socket, url, method, opts, bound, upstream, wantsBody);
    const httpVersion = (connection.socket as Partial<tls.TLSSocket>).alpnProtocol === 'h2' ? '2' : '1.1';
    return {
      hop: {
        url: url.href,
        statusCode: response.statusCode,
        statusText: response.statusText || STATUS_CODES[response.statusCode] || '',
        headers: response.headers,
        location: resolvedLocation(url, response.headers.location ?? null),
        remoteAddress: connection.remoteAddress,
        httpVersion,
        tls: connection.tls,
        timing: {
          dnsMs: roundMs(dnsMs),
          tcpMs: roundMs(connection.tcpMs),
          tlsMs: roundMs(connection.tlsMs),
          ttfbMs: roundMs(response.ttfbMs),
          totalMs: roundMs(response.endedAt - hopStarted),
        },
      },
      body: response.body,
      bodyEnd: response.bodyEnd,
    };
  } finally {
    connection.socket.destroy();
  }
}

interface ResponseOutcome {
  statusCode: number;
  statusText: string;
  headers: HeaderMap;
  body: Buffer | null;
  bodyEnd: BodyEnd | null;
  ttfbMs: number;
  endedAt: number;
}

/** Sends GET over the connected socket through undici and reads the response as `wantsBody` says. */
function exchange(
  socket: net.Socket,
  url: URL,
  method: 'GET' | 'OPTIONS' | 'POST',
  opts: FetchOptions,
  bound: FetchBound,
  upstream: string,
  wantsBody: WantsBody,
): Promise<ResponseOutcome> {
  return new Promise((resolve, reject) => {
    let handedOver = false;
    const client = new Client(url.origin, {
      // The only connection this client may use is the checked one, and only once.
      connect(_options, callback) {
        if (handedOver) {
          callback(new Error('the checked connection was already used'), null);
          return;
        }
        handedOver = true;
        // undici ignores a connector that answers synchronously (its resume loop is
        // still running), so the socket is handed over on the next microtask.
        queueMicrotask(() => callback(null, socket));
      },
      allowH2: opts.http2 !== false,
      maxHeaderSize: MAX_HEADER_BYTES,
      // The fetch deadline bounds both.
      headersTimeout: 0,
      bodyTimeout: 0,
    });
    let settled = false;
    let collector: BodyCollector | null = null;
    let response: Omit<ResponseOutcome, 'body' | 'bodyEnd' | 'endedAt'> | null = null;
    const cleanup = (): void => {
      bound.signal.removeEventListener('abort', onAbort);
      collector?.destroy();
      client.destroy().catch(ignore);
    };
    const fail = (e: unknown): void => {
      if (settled) return;
      settled = true;
      cleanup();
      reject(e);
    };
    const finish = (body: Buffer | null, bodyEnd: BodyEnd | null): void => {
      if (settled || response === null) return;
      settled = true;
      const endedAt = performance.now();
      cleanup();
      resolve({ ...response, body, bodyEnd, endedAt });
    };
    const onAbort = (): void => fail(bound.error(upstream));
    const dispatchedAt = performance.now();
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart: ignore,
      onResponseStart(controller, statusCode, parsedHeaders, statusMessage) {
        // 1xx responses are interim (RFC 9110 §15.2); the final one follows.
        if (settled || statusCode < 200) return;
        const raw = controller.rawHeaders;
        const headers = Array.isArray(raw)
          ? normaliseHeaderFields(pairRawHeaders(raw))
          : normaliseHeaderFields(
              Object.entries(parsedHeaders).flatMap(([name, value]) =>
                (Array.isArray(value) ? value : [value ?? '']).map((v): [string, string] => [name, String(v)]),
              ),
            );
        response = { statusCode, statusText: statusMessage ?? '', headers, ttfbMs: performance.now() - dispatchedAt };
        if (!wantsBody(statusCode, headers)) {
          finish(null, null);
          return;
        }
        try {
          collector = new BodyCollector(
            headers['content-encoding'],
            opts.maxBodyBytes,
            opts.stopWhen,
            upstream,
            finish,
            fail,
          );
        } catch (e) {
          fail(e);
        }
      },
      onResponseData(_controller, chunk) {
        if (!settled) collector?.push(chunk);
      },
      onResponseEnd() {
        if (!settled) collector?.end();
      },
      onResponseError(_controller, error) {
        fail(httpError(error, upstream));
      },
    };
    if (bound.signal.aborted) {
      onAbort();
      return;
    }
    bound.signal.addEventListener('abort', onAbort, { once: true });
    try {
      client.dispatch(
        {
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method,
          headers: requestHeaders(opts),
          ...(method === 'POST' && opts.body ? { body: opts.body } : {}),
        },
        handler,
      );
    } catch (e) {
      fail(new ProbeError('MALFORMED', upstream, `cannot request ${url.href}: ${(e as Error).message}`, { cause: e }));
    }
  });
}

function requestHeaders(opts: FetchOptions): Record<string, string> {
  const headers: Record<string, string> = {
    'user-agent': opts.userAgent ?? DEFAULT_USER_AGENT,
    accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8',
  };
  const acceptEncoding = opts.acceptEncoding ?? DEFAULT_ACCEPT_ENCODING;
  if (acceptEncoding !== '') headers['accept-encoding'] = acceptEncoding;
  for (const [name, value] of Object.entries(opts.requestHeaders ?? {})) headers[name.toLowerCase()] = value;
  return headers;
}

function httpError(error: Error, upstream: string): ProbeError {
  if (error instanceof ProbeError) return error;
  const code = (error as NodeJS.ErrnoException).code ?? '';
  if (code === 'UND_ERR_HEADERS_OVERFLOW') {
    return new ProbeError('TOO_LARGE', upstream, `response headers from ${upstream} exceed ${MAX_HEADER_BYTES} bytes`, {
      cause: error,
    });
  }
  if (code.startsWith('HPE_') || code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') {
    return new ProbeError('MALFORMED', upstream, `malformed HTTP response from ${upstream}: ${error.message}`, {
      cause: error,
    });
  }
  if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE') {
    return new ProbeError(
      'UNREACHABLE',
      upstream,
      `connection to ${upstream} closed before the response was complete`,
      { cause: error },
    );
  }
  return new ProbeError(
    'UNREACHABLE',
    upstream,
    `HTTP exchange with ${upstream} failed: ${code ? `${code}: ` : ''}${error.message}`,
    {
      cause: error,
    },
  );
}
