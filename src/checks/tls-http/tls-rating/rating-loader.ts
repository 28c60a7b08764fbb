/**
 * The per-request loader of whole TLS ratings (decisions §9): within one request the rating of a
 * (host, port, address) is made once, so a GraphQL operation that selects tlsRating and
 * websiteHealthCheck (whose tls-rating part is the same rating) enumerates the server once.
 *
 * The rating's handshakes already go through the connection loaders, but that is not enough: the
 * enumeration adapts to what it has seen (a suite already seen accepted is not offered again), so a
 * second run, whose answers arrive in another order, would ask questions the first did not; and it
 * would spend a second budget of handshakes and time. Sharing the whole answer also gives both
 * fields the same data, down to its duration.
 *
 * The loaders layer does not know the checks: the rating itself is handed in by the first caller
 * (`rate`), and every later caller of the same question gets that caller's answer or error.
 */
import { declareLoader } from '../../../loaders/declared-loader.js';
import { createRequestLoader } from '../../../loaders/request-loader.js';

export interface TlsRatingQuestion {
  /** the host as rated (its SNI) */
  readonly host: string;
  readonly port: number;
  /** the address rated, one the target guard returned */
  readonly ip: string;
  /** website-health-check's light grade, a rating of its own (its handshakes are shared through the connection loaders) */
  readonly light: boolean;
}

export interface RatingLoaders {
  /** the rating of `question`: made by `rate` the first time the request asks, then shared */
  tlsRating<R>(question: TlsRatingQuestion, rate: () => Promise<R>): Promise<R>;
}

export function tlsRatingQuestionKey(question: TlsRatingQuestion): string {
  return `${question.host}|${question.port}|${question.ip}|${question.light ? 'light' : 'full'}`;
}

interface AskedRating {
  readonly question: TlsRatingQuestion;
  readonly rate: () => Promise<unknown>;
}

export function createRatingLoaders(): RatingLoaders {
  const ratings = createRequestLoader<AskedRating, unknown>(
    (asked) => asked.rate(),
    (asked) => tlsRatingQuestionKey(asked.question),
  );
  return {
    // the answer of a key is always made by a `rate` of the same check, so it has that check's type
    tlsRating: <R>(question: TlsRatingQuestion, rate: () => Promise<R>) =>
      ratings.load({ question, rate }) as Promise<R>,
  };
}

/** The whole TLS ratings of a request (`checks.use(tlsRatings)`). */
export const tlsRatings = declareLoader('TLS ratings', createRatingLoaders);
