/**
 * http-rating `data` (docs/contract/grades.md "http-rating — `url` (http or https; a bare host means
 * `https://host/`)"): the Observatory's scan (observatory/scan.ts) over the exchanges run.ts made, or,
 * for an answer the Observatory does not grade (a status other than 2xx, 3xx, 401 or 403), the same frame with
 * `grade` null and `error` saying why (a 200: a finding). Beyond the contract's fields it adds (decisions:
 * fields may be added) `httpsError` and `httpError`: why the session from https:// or http:// gave no answer,
 * which explains results such as hsts-not-implemented-no-https and redirection-not-needed-no-http.
 */
import type { FetchResult } from '../../../probes/http/fetcher.js';
import type { PreloadLookup } from './observatory/hsts-preload.js';
import { type ObservedSession, type ObservedSite, observatoryInputs } from './observatory/inputs.js';
import { OBSERVATORY_ALGORITHM_VERSION } from './observatory/results.js';
import { isGradableStatus, type ObservatoryTest, observatoryScan } from './observatory/scan.js';

export interface HttpRatingResult {
  /** the URL the graded session started from: https://host/, or http://host/ when https gave no answer */
  url: string;
  finalUrl: string;
  statusCode: number;
  algorithmVersion: number;
  /** null when not graded */
  score: number | null;
  grade: string | null;
  testsPassed: number | null;
  testsFailed: number | null;
  testsQuantity: number | null;
  /** the ten tests in grades.md's order; empty when not graded */
  tests: ObservatoryTest[];
  /** why the answer was not graded; null when it was */
  error: string | null;
  httpsError: string | null;
  httpError: string | null;
}

/** A session's fetch: what answered, or why nothing did. */
export type SessionFetch = { ok: true; result: FetchResult } | { ok: false; reason: string };

const utf8 = new TextDecoder('utf-8');

/** The exchanges of one fetch as the Observatory's tests read them. */
export function observedSession(result: FetchResult): ObservedSession {
  return {
    hops: result.hops.map((hop) => ({
      url: hop.url,
      status: hop.statusCode,
      headers: hop.headers,
      certificateError: hop.tls?.authorizationError ?? null,
    })),
    // the package reads the body as UTF-8 text whatever the charset (axios' default)
    body: result.body === null ? null : utf8.decode(result.body),
  };
}

export interface RatingExchanges {
  hostname: string;
  https: SessionFetch;
  http: SessionFetch;
  /** the preflight of the graded session's URL; null when it gave no answer */
  cors: { origin: string; result: FetchResult } | null;
}

/** The rating; throws RangeError when neither session answered (the run module fails the check first). */
export function httpRating(exchanges: RatingExchanges, preloaded: PreloadLookup): HttpRatingResult {
  const site: ObservedSite = {
    hostname: exchanges.hostname,
    https: exchanges.https.ok ? observedSession(exchanges.https.result) : null,
    http: exchanges.http.ok ? observedSession(exchanges.http.result) : null,
    cors:
      exchanges.cors === null ? null : { origin: exchanges.cors.origin, headers: exchanges.cors.result.final.headers },
  };
  const inputs = observatoryInputs(site, preloaded);
  const graded = exchanges.https.ok ? exchanges.https.result : exchanges.http.ok ? exchanges.http.result : null;
  if (inputs === null || graded === null) throw new RangeError('http-rating needs an answer from https or http');
  const frame = {
    url: graded.requestedUrl,
    finalUrl: graded.finalUrl,
    statusCode: graded.final.statusCode,
    algorithmVersion: OBSERVATORY_ALGORITHM_VERSION,
    httpsError: exchanges.https.ok ? null : exchanges.https.reason,
    httpError: exchanges.http.ok ? null : exchanges.http.reason,
  };
  if (!isGradableStatus(inputs.auto.status)) {
    const { statusCode, statusText } = graded.final;
    return {
      ...frame,
      score: null,
      grade: null,
      testsPassed: null,
      testsFailed: null,
      testsQuantity: null,
      tests: [],
      error: `${graded.finalUrl} answered ${statusCode}${statusText ? ` ${statusText}` : ''}: the Observatory grades only 2xx, 3xx, 401 and 403 answers`,
    };
  }
  const scan = observatoryScan(inputs);
  return {
    ...frame,
    score: scan.score,
    grade: scan.grade,
    testsPassed: scan.testsPassed,
    testsFailed: scan.testsFailed,
    testsQuantity: scan.testsQuantity,
    tests: scan.tests,
    error: null,
  };
}
