/**
 * What a monitor knows about one check (docs/contract/monitors.md "Events"): its watched fields as a
 * projection of the REST `data` (exactly the single call's `data`), which of them are better or worse, what
 * in it ends (certificates, registrations), and the state a person sees. One spec per tool, declared with
 * its check (`watch:` in its declaration, usually from the check's `watch.ts`); a spec reads plain JSON and
 * this kit imports nothing of src/ but itself, so that checks may use it and monitors/ receives the specs
 * as data (src/graphql-server/watch-specs.ts).
 */
import type { JsonObject, Projection } from './projection.js';
import { patternKeys, type RankedPath, type Ranking } from './ranking.js';

/** The state of a target × check as GET /api/v1/monitors/{id} shows it, for an answer that came. */
export type AnswerStatus = 'ok' | 'info' | 'warning' | 'critical';

export interface Assessment {
  readonly status: AnswerStatus;
  /** a rating's letter (tls-rating, http-rating); null for the other checks and for an answer not graded */
  readonly grade: string | null;
  /** one sentence a person reads */
  readonly summary: string;
}

/** Something in an answer that ends on a date. */
export interface Expiry {
  /** stable within the check's answers: which certificate or registration (`certificate`, `mx[a.example].certificate`) */
  readonly subject: string;
  readonly kind: 'certificate' | 'registration';
  /** how a person names it: "the certificate of mx1.example.com" */
  readonly description: string;
  /** ISO 8601 */
  readonly expiresAt: string;
}

export interface WatchSpec {
  /** the v1 tool name (REST route), e.g. `tls-rating` */
  readonly tool: string;
  /** the watched fields of the tool's REST `data` */
  project(data: JsonObject): Projection;
  /** paths whose values rank better or worse (./ranking.ts); every other path only changes */
  readonly ranked: readonly RankedPath[];
  /** certificates and registrations in the answer, for `expiring` events; none when absent */
  expiries?(data: JsonObject): Expiry[];
  assess(data: JsonObject): Assessment;
}

/** A spec with its ranked paths read once. */
export interface CompiledWatchSpec extends WatchSpec {
  readonly rankedKeys: readonly { readonly keys: readonly string[]; readonly ranking: Ranking }[];
}

export function defineWatch(spec: WatchSpec): CompiledWatchSpec {
  return { ...spec, rankedKeys: spec.ranked.map((r) => ({ keys: patternKeys(r.pattern), ranking: r.ranking })) };
}
