/**
 * What the Observatory's tests read, built from the exchanges http-rating made (docs/contract/grades.md
 * "http-rating — `url` (http or https; a bare host means `https://host/`)"): the session that started at
 * https://host/ (redirects followed), the one that started at http://host/, and the CORS preflight. The package
 * (1.4.8, src/retriever/retriever.js) grades the https session when it answered at all and the http session
 * otherwise; its `https` and `http` responses are each session's final response, and its cookie jar holds every
 * Set-Cookie line of the graded session's responses, redirects included (the jar sits on the agent that follows
 * them). The same function turns a corpus case into the tests' inputs, so the recorded cross-check covers this
 * step too.
 */
import type { HeaderMap } from '../../../../probes/http/header-fields.js';
import { type HtmlFacts, readHtmlFacts } from './html.js';
import type { PreloadEntry } from './hsts-preload.js';

/** One response of a session, in order: a redirect or the final answer. */
export interface ObservedHop {
  url: string;
  status: number;
  /** lower-case names; repeats joined with ", ", set-cookie lines with "\n" (header-fields.ts) */
  headers: HeaderMap;
  /** the certificate problem of an https hop's connection (OpenSSL's code); null when trusted or over http */
  certificateError?: string | null;
}

/** A session: every response from the first request to the final one, and the final response's body. */
export interface ObservedSession {
  hops: ObservedHop[];
  /** the final response's body as text; null when not read (not HTML, or not asked for) */
  body?: string | null;
}

export interface ObservedCors {
  /** the Origin the preflight carried */
  origin: string;
  /** the final response's headers */
  headers: HeaderMap;
}

export interface ObservedSite {
  /** the host rated (the package's `hostname`, used for the preload list and SRI's site comparison) */
  hostname: string;
  /** the session from https://host/; null when it did not answer (refused, no TLS, time-out) */
  https: ObservedSession | null;
  /** the session from http://host/; null when it did not answer */
  http: ObservedSession | null;
  /** the CORS preflight; null when it did not answer */
  cors: ObservedCors | null;
}

/** A final response as the tests read it. */
export interface FinalResponse {
  url: string;
  status: number;
  headers: HeaderMap;
  /** no hop of its session met a certificate problem (the package's `verified`) */
  verified: boolean;
}

export interface ObservatoryInputs {
  hostname: string;
  /** the graded session's first URL: the package's `session.url` */
  sessionUrl: URL;
  /** the graded response (the package's `responses.auto`) */
  auto: FinalResponse;
  /** the graded response's body */
  document: string | null;
  /** the <meta> elements of the graded document that stand for headers (null when it is not HTML) */
  html: HtmlFacts | null;
  https: FinalResponse | null;
  http: FinalResponse | null;
  /** every response of the http session, in order (the package's `httpRedirects`) */
  httpRedirects: { url: URL; status: number }[];
  /** the graded session's Set-Cookie lines with the URL of the response that carried them, in order */
  cookies: { url: string; setCookie: string[] }[];
  cors: ObservedCors | null;
  preloaded(hostname: string): PreloadEntry | null;
}

/** The media types the package treats as HTML (its HTML_TYPES): compared exactly, parameters cut off. */
const HTML_TYPES: ReadonlySet<string> = new Set(['text/html', 'application/xhtml+xml']);

/** The Content-Type's media type as the package compares it: the text before the first ";", untouched. */
export function mediaTypeOf(headers: HeaderMap): string {
  return (headers['content-type'] ?? '').split(';')[0]!;
}

export function isObservatoryHtml(headers: HeaderMap): boolean {
  return HTML_TYPES.has(mediaTypeOf(headers));
}

function finalOf(session: ObservedSession): FinalResponse {
  const final = session.hops.at(-1);
  if (final === undefined) throw new RangeError('an observed session has at least one response');
  return {
    url: final.url,
    status: final.status,
    headers: final.headers,
    verified: session.hops.every((hop) => !hop.certificateError),
  };
}

/** The tests' inputs; null when neither session answered (the package's "The site seems to be down."). */
export function observatoryInputs(
  site: ObservedSite,
  preloaded: (hostname: string) => PreloadEntry | null,
): ObservatoryInputs | null {
  const graded = site.https ?? site.http;
  if (graded === null) return null;
  const auto = finalOf(graded);
  const document = graded.body ?? null;
  return {
    hostname: site.hostname,
    sessionUrl: new URL(graded.hops[0]!.url),
    auto,
    document,
    // the package parses <meta> only of an HTML answer with a non-empty body
    html: isObservatoryHtml(auto.headers) && document ? readHtmlFacts(document) : null,
    https: site.https === null ? null : finalOf(site.https),
    http: site.http === null ? null : finalOf(site.http),
    httpRedirects: (site.http?.hops ?? []).map((hop) => ({ url: new URL(hop.url), status: hop.status })),
    cookies: graded.hops.map((hop) => ({ url: hop.url, setCookie: setCookieLines(hop.headers) })),
    cors: site.cors,
    preloaded,
  };
}

/** The Set-Cookie lines of a response (header-fields.ts joins them with "\n"). */
export function setCookieLines(headers: HeaderMap): string[] {
  const joined = headers['set-cookie'];
  return joined === undefined ? [] : joined.split('\n');
}
