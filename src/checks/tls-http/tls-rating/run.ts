/**
 * tls-rating: the awaiting part (docs/contract/grades.md). Enumerates what the server accepts on the first
 * address of the name, then hands the observations to the pure modules (rating.ts, grade.ts,
 * mozilla.ts). Every connection goes through the check context's loaders, so through the target guard
 * and the outbound caps, and within the rating's own bounds (rating-budget.ts).
 *
 * The enumeration, in two rounds, each concurrent:
 *   1. versions: one handshake pinned to each version this side offers, offering everything it can
 *      (which also shows the suite the server prefers), and a hand-built ClientHello for SSLv3;
 *   2. for each supported version, one offer of each family of suites (same key exchange and
 *      authentication): a family the server refuses costs one handshake, not one per suite, and each
 *      suite of an accepted family is then offered on its own (a suite already seen accepted is not
 *      asked again); the TLS 1.3 suites one by one through the TLS 1.3 cipher list; the list reversed
 *      (server order); each group on its own; the suites this side's library lacks by hand-built
 *      ClientHellos; HSTS; AIA when the chain came incomplete.
 */
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import type { CheckContext } from '../../../loaders/context.js';
import { tlsRatings } from './rating-loader.js';
import { ProbeError } from '../../../probes/errors.js';
import { PROTOCOL_CODES, type HelloVersion } from '../../../probes/tls/client-hello.js';
import type { HelloProbeResult } from '../../../probes/tls/hello-probe.js';
import {
  EVERYTHING_CIPHERS,
  GROUP_CODES,
  GROUP_OPENSSL_NAMES,
  localOffer,
  POST_QUANTUM_GROUPS,
  type LocalOffer,
  type OfferedVersion,
} from '../../../probes/tls/local-offer.js';
import type { TlsHandshakeResult } from '../../../probes/tls/prober.js';
import { protocolVerdict } from '../../../probes/tls/protocols.js';
import {
  CIPHER_SUITES,
  suiteByCode,
  suiteByName,
  usableWith,
  type CipherSuite,
  type RatedVersion,
} from './cipher-suites.js';
import { mozillaGuidelines } from './mozilla-guidelines.js';
import { MISSING_ISSUER, observedCertificate, trustedThroughAia } from './rating-certificate.js';
import { createRatingBudget, SKIPPED, type RatingBudget, type Skipped } from './rating-budget.js';
import { hstsMaxAge, tlsRatingData, type RatedProtocolResult, type TlsRatingData } from './rating.js';
import { firstAddressPerFamily } from '../shared/main-handshake.js';

/** docs/contract/grades.md "The grade (the contract)", the bounds after it: the whole rating within 30 s. */
export const RATING_DEADLINE_MS = 30_000;
/**
 * The rating runs under the composite request bound (server.compositeTimeoutMs, 30 s by default): it
 * stops this much earlier, so that what was learnt is graded and answered (`partial`) rather than the
 * request ending in a 504.
 */
const ANSWER_MARGIN_MS = 1000;
/** The HSTS fetch reads headers only. */
const HSTS_MAX_BYTES = 1;

const NODE_VERSIONS: readonly OfferedVersion[] = ['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'];
/** At security level 0 so that no local policy refuses what the server offers (a 1024-bit key, SHA-1). */
const ANY_LEVEL = ':@SECLEVEL=0';

type Outcome<T> = PromiseSettledResult<T> | Skipped;

interface Accepted {
  readonly version: RatedVersion;
  readonly suite: CipherSuite;
}

/** Connections kept for the HSTS fetch and the AIA fetches (rating-certificate.ts), which are not handshakes. */
const FETCHES_RESERVED = 4;

/**
 * At most `tls.ratingHandshakes`, and no more than the request's connection budget leaves once the
 * fetches are reserved (src/loaders/connection-budget.ts): the enumeration is planned within what the
 * request may open, so it is graded `partial` rather than cut off.
 */
function ratingHandshakes(ctx: CheckContext, light: boolean): number {
  const cap = light ? LIGHT_RATING_HANDSHAKES : ctx.config.tls.ratingHandshakes;
  return Math.max(0, Math.min(cap, ctx.connectionBudget.remaining - FETCHES_RESERVED));
}

/**
 * The light grade's handshakes: round 1 is one per version this side offers (four) and one hand-built
 * ClientHello for SSLv3 (a version the library lacks is asked by hand instead, not as well); one spare.
 */
export const LIGHT_RATING_HANDSHAKES = 6;

/** Node's name of an ephemeral ECDH key's curve (getEphemeralKeyInfo) → the group's name in grades.md. */
const EPHEMERAL_GROUPS: Readonly<Record<string, string>> = {
  x25519: 'x25519',
  x448: 'x448',
  prime256v1: 'secp256r1',
  secp256r1: 'secp256r1',
  'p-256': 'secp256r1',
  secp384r1: 'secp384r1',
  'p-384': 'secp384r1',
  secp521r1: 'secp521r1',
  'p-521': 'secp521r1',
  x25519mlkem768: 'X25519MLKEM768',
};

/** The group a completed handshake used, when its key exchange names one (the light grade's groups). */
function groupUsed(result: TlsHandshakeResult): string | null {
  const key = result.ephemeralKey;
  if (!key || key.name === null || key.type === 'DH') return null;
  return EPHEMERAL_GROUPS[key.name.toLowerCase()] ?? null;
}

/** The check fails (rather than reports) on a refused address, the request ending, or a bug. */
function assertFinding<T>(outcome: Outcome<T>): Outcome<T> {
  if (outcome === SKIPPED || outcome.status !== 'rejected') return outcome;
  const reason: unknown = outcome.reason;
  if (!(reason instanceof ProbeError) || reason.kind === 'ABORTED') throw reason;
  return outcome;
}

function fulfilled<T>(outcome: Outcome<T>): T | null {
  return outcome !== SKIPPED && outcome.status === 'fulfilled' ? outcome.value : null;
}

function negotiatedSuite(result: TlsHandshakeResult): CipherSuite | undefined {
  return suiteByName(result.cipherStandardName ?? result.cipher) ?? suiteByName(result.cipher);
}

function familyKey(suite: CipherSuite): string {
  return `${suite.keyExchange}/${suite.authentication ?? ''}`;
}

function openSslList(suites: readonly CipherSuite[], version: RatedVersion): string {
  const names = suites.map((s) => s.openssl).join(':');
  // Node passes TLS_* names to SSL_CTX_set_ciphersuites and the rest to the cipher list; @SECLEVEL
  // in the latter sets the level of the whole context, TLS 1.3 included.
  return version === 'TLSv1.3' ? `${names}:ALL${ANY_LEVEL}` : `${names}${ANY_LEVEL}`;
}

/** The suites of `version` this side's library offers, in the order it offers them. */
function nodeSuites(offer: LocalOffer, version: RatedVersion): CipherSuite[] {
  if (version === 'SSLv3') return [];
  return [...offer.suites[version]]
    .map(suiteByCode)
    .filter((s): s is CipherSuite => s !== undefined && usableWith(s, version));
}

/** The suites of `version` only a hand-built ClientHello can offer. */
function handBuiltSuites(offer: LocalOffer, version: RatedVersion): CipherSuite[] {
  if (version === 'TLSv1.3') return [];
  const offered = version === 'SSLv3' ? new Set<number>() : offer.suites[version];
  return CIPHER_SUITES.filter((s) => usableWith(s, version) && !offered.has(s.code));
}

function helloVerdict(
  version: HelloVersion,
  outcome: Outcome<HelloProbeResult>,
): { result: RatedProtocolResult; note: string | null } {
  if (outcome === SKIPPED) return { result: 'unable-to-test', note: "the rating's bounds were reached" };
  if (outcome.status === 'rejected')
    return {
      result: 'unable-to-test',
      note: outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason),
    };
  const answer = outcome.value;
  if (answer.kind === 'server-hello')
    return answer.version === PROTOCOL_CODES[version]
      ? { result: 'supported', note: null }
      : { result: 'not-supported', note: null };
  if (answer.kind === 'not-tls') return { result: 'unable-to-test', note: 'the server did not answer in TLS' };
  return { result: 'not-supported', note: null };
}

export interface TlsRatingInput {
  domain: string;
  port: number;
  /**
   * The light grade (website-health-check's part, docs/tools/notes/website-health-check.md): round 1 only —
   * the versions and each one's preferred suite, the certificate and chain, the groups those handshakes
   * used, HSTS — in at most LIGHT_RATING_HANDSHAKES handshakes, graded by the same rules over what it saw.
   * The full enumeration of suites and groups is tls-rating's.
   */
  light?: boolean;
  /**
   * A bound of the caller's within the rating's own: a composite's part ends before the request does,
   * and a rating that stops in time is graded (`partial`) where one cut off by the part is only an error.
   */
  deadlineMs?: number;
}

export async function runTlsRating(ctx: CheckContext, input: TlsRatingInput): Promise<TlsRatingData> {
  const started = performance.now();
  const { domain, port } = input;
  const checked = await ctx.guard.check({ kind: 'hostname', hostname: domain }, ctx.signal, 'domain');
  const address = firstAddressPerFamily(checked.addresses)[0];
  if (address === undefined) throw new RangeError('the target guard returned no address');
  const ip = address.address;
  // Once per (host, port, address, light or full) per request (./rating-loader.ts): two fields asking
  // the same rating share one enumeration, under the bounds of whichever asked first; a light grade beside a
  // full rating shares its round-1 handshakes and HSTS fetch through the connection and fetch loaders.
  const light = input.light === true;
  return ctx.use(tlsRatings).tlsRating({ host: domain, port, ip, light }, () =>
    enumerateAndGrade(ctx, {
      domain,
      port,
      ip,
      started,
      deadlineMs: input.deadlineMs ?? RATING_DEADLINE_MS,
      light,
    }),
  );
}

async function enumerateAndGrade(
  ctx: CheckContext,
  rating: { domain: string; port: number; ip: string; started: number; deadlineMs: number; light: boolean },
): Promise<TlsRatingData> {
  const { domain, port, ip, started, light } = rating;
  const servername = net.isIP(domain) === 0 ? domain : null;
  const offer = await localOffer();
  const now = new Date(ctx.now());
  const requestBoundMs = ctx.config.server.compositeTimeoutMs - ANSWER_MARGIN_MS;
  const budget: RatingBudget = createRatingBudget({
    handshakes: ratingHandshakes(ctx, light),
    concurrency: ctx.config.tls.ratingConcurrency,
    deadlineMs: Math.max(0, Math.min(RATING_DEADLINE_MS, requestBoundMs, rating.deadlineMs)),
  });

  const handshake = async (version: OfferedVersion, ciphers: string, groups?: string) => {
    const outcome = await budget.run(() =>
      ctx.tlsHandshake({
        ip,
        port,
        servername,
        minVersion: version,
        maxVersion: version,
        ciphers,
        ...(groups ? { groups } : {}),
        target: domain,
      }),
    );
    return assertFinding(outcome);
  };
  const hello = async (version: HelloVersion, suites: readonly CipherSuite[], groups?: readonly number[]) => {
    const outcome = await budget.run(() =>
      ctx.tlsHello({
        ip,
        port,
        target: domain,
        hello: { version, cipherSuites: suites.map((s) => s.code), servername, ...(groups ? { groups } : {}) },
      }),
    );
    return assertFinding(outcome);
  };

  const accepted = new Map<string, Accepted>();
  const dhBits: number[] = [];
  const accept = (version: RatedVersion, suite: CipherSuite | undefined): void => {
    if (suite !== undefined && usableWith(suite, version)) accepted.set(`${version}|${suite.code}`, { version, suite });
  };
  /** Records what a completed handshake shows: its suite is accepted, a DHE key's size counts. */
  const observe = (version: RatedVersion, result: TlsHandshakeResult | null): CipherSuite | undefined => {
    if (result === null) return undefined;
    const suite = negotiatedSuite(result);
    accept(version, suite);
    if (suite?.keyExchange === 'DHE' && result.ephemeralKey?.type === 'DH') dhBits.push(result.ephemeralKey.size);
    return suite;
  };
  const isAccepted = (version: RatedVersion, suite: CipherSuite): boolean => accepted.has(`${version}|${suite.code}`);

  try {
    // Round 1: the versions. A version below 1.3 that this side's library does not offer (a build or
    // policy without TLS 1.0, say) is asked by a hand-built ClientHello, as SSLv3 is.
    const byHand = (['TLSv1', 'TLSv1.1', 'TLSv1.2'] as const).filter((v) => offer.suites[v].size === 0);
    const [nodeOutcomes, sslv3Outcome, byHandOutcomes] = await Promise.all([
      Promise.all(
        NODE_VERSIONS.map((v) => (offer.suites[v].size > 0 ? handshake(v, EVERYTHING_CIPHERS) : Promise.resolve(null))),
      ),
      hello('SSLv3', handBuiltSuites(offer, 'SSLv3')),
      Promise.all(byHand.map((v) => hello(v, handBuiltSuites(offer, v)))),
    ]);
    const protocols = {} as Record<RatedVersion, { result: RatedProtocolResult; note: string | null }>;
    const preferred: { version: RatedVersion; name: string }[] = [];
    const recordHello = (version: HelloVersion & RatedVersion, outcome: Outcome<HelloProbeResult>): void => {
      protocols[version] = helloVerdict(version, outcome);
      const answer = fulfilled(outcome);
      if (protocols[version].result !== 'supported' || answer?.kind !== 'server-hello') return;
      const suite = suiteByCode(answer.cipherSuite);
      accept(version, suite);
      if (suite) preferred.push({ version, name: suite.name });
    };
    recordHello('SSLv3', sslv3Outcome);
    byHand.forEach((version, i) => {
      recordHello(version, byHandOutcomes[i]!);
    });
    const mains = new Map<OfferedVersion, TlsHandshakeResult>();
    NODE_VERSIONS.forEach((version, i) => {
      const outcome = nodeOutcomes[i];
      if (outcome === null || outcome === undefined) {
        protocols[version] ??= { result: 'unable-to-test', note: 'this side cannot offer the version' };
        return;
      }
      if (outcome === SKIPPED) {
        protocols[version] = { result: 'unable-to-test', note: "the rating's bounds were reached" };
        return;
      }
      const result = protocolVerdict(version, true, outcome);
      protocols[version] = {
        result,
        note: result === 'unable-to-test' && outcome.status === 'rejected' ? failureText(outcome.reason) : null,
      };
      if (result === 'supported' && outcome.status === 'fulfilled') {
        mains.set(version, outcome.value);
        const suite = observe(version, outcome.value);
        if (suite) preferred.push({ version, name: suite.name });
      }
    });
    const supported = (['SSLv3', ...NODE_VERSIONS] as RatedVersion[]).filter(
      (v) => protocols[v].result === 'supported',
    );
    if (supported.length === 0) throwUnreachable(nodeOutcomes, sslv3Outcome);
    const best = [...NODE_VERSIONS].reverse().find((v) => mains.has(v));
    const main = best === undefined ? null : mains.get(best)!;

    // Round 2: families (and then their members), TLS 1.3 suites, server order, groups, legacy suites,
    // HSTS, AIA. A family's members start as soon as the family is known to be accepted.
    const eachOnItsOwn = (version: OfferedVersion, members: readonly CipherSuite[]): Promise<void> =>
      Promise.all(
        members
          .filter((s) => !isAccepted(version, s))
          .map((s) => handshake(version, openSslList([s], version)).then((o) => void observe(version, fulfilled(o)))),
      ).then(() => undefined);
    const familyProbes: Promise<void>[] = [];
    // The light grade stops at round 1's suites (the preferred one of each version); so below.
    for (const version of NODE_VERSIONS.filter((v) => !light && v !== 'TLSv1.3' && mains.has(v))) {
      const byFamily = new Map<string, CipherSuite[]>();
      for (const suite of nodeSuites(offer, version)) {
        const key = familyKey(suite);
        byFamily.set(key, [...(byFamily.get(key) ?? []), suite]);
      }
      for (const members of byFamily.values()) {
        if (members.some((s) => isAccepted(version, s))) {
          familyProbes.push(eachOnItsOwn(version, members));
          continue;
        }
        familyProbes.push(
          handshake(version, openSslList(members, version)).then((outcome) =>
            observe(version, fulfilled(outcome)) ? eachOnItsOwn(version, members) : undefined,
          ),
        );
      }
    }
    const tls13Probes =
      !light && mains.has('TLSv1.3')
        ? nodeSuites(offer, 'TLSv1.3')
            .filter((s) => !isAccepted('TLSv1.3', s))
            .map((s) =>
              handshake('TLSv1.3', openSslList([s], 'TLSv1.3')).then((o) => void observe('TLSv1.3', fulfilled(o))),
            )
        : [];

    const orderChecks = (light ? [] : [...mains.keys()]).map(async (version) => {
      const reversed = nodeSuites(offer, version).reverse();
      const outcome = await handshake(version, openSslList(reversed, version));
      return { version, suite: observe(version, fulfilled(outcome)) };
    });

    // Groups one at a time. With TLS 1.3 by hand-built ClientHellos without a key share: a server that
    // takes the group answers a HelloRetryRequest naming it (RFC 8446 §4.1.4), so no key exchange is
    // computed on either side (an ffdhe8192 handshake costs more than the rest of the rating). Only
    // groups this side's library could complete a handshake with are asked (grades.md: postQuantum is
    // null where this side cannot offer X25519MLKEM768). Without TLS 1.3, the elliptic curves of ECDHE
    // suites through the prober (RFC 8422 §5.1.1: the ServerHello does not name the curve).
    const tls13Suites = nodeSuites(offer, 'TLSv1.3');
    const ecdheSuites = best === undefined ? [] : nodeSuites(offer, best).filter((s) => s.keyExchange === 'ECDHE');
    const groupChecks = light
      ? [...new Set([...mains.values()].map(groupUsed))].map(async (group) => group)
      : mains.has('TLSv1.3')
        ? offer.groups.map(async (group) => {
            const code = GROUP_CODES[group];
            if (code === undefined) return null;
            const answer = fulfilled(await hello('TLSv1.3', tls13Suites, [code]));
            return answer?.kind === 'server-hello' &&
              answer.version === PROTOCOL_CODES['TLSv1.3'] &&
              answer.group === code
              ? group
              : null;
          })
        : best === undefined || ecdheSuites.length === 0
          ? []
          : offer.groups
              .filter((g) => !g.startsWith('ffdhe') && !POST_QUANTUM_GROUPS.includes(g))
              .map(async (group) => {
                const outcome = await handshake(best, openSslList(ecdheSuites, best), GROUP_OPENSSL_NAMES[group]);
                return observe(best, fulfilled(outcome)) ? group : null;
              });

    // Legacy suites by hand, per version: offer all that remain, note the one chosen, until refused.
    const legacyChecks = (['SSLv3', 'TLSv1', 'TLSv1.1', 'TLSv1.2'] as const)
      .filter((v) => !light && supported.includes(v))
      .map(async (version) => {
        let remaining = handBuiltSuites(offer, version).filter((s) => !isAccepted(version, s));
        while (remaining.length > 0) {
          const answer = fulfilled(await hello(version, remaining));
          if (answer?.kind !== 'server-hello' || answer.version !== PROTOCOL_CODES[version]) return;
          const chosen = remaining.find((s) => s.code === answer.cipherSuite);
          if (chosen === undefined) return;
          accept(version, chosen);
          remaining = remaining.filter((s) => s !== chosen);
        }
      });

    const hstsFetch = ctx
      .fetchDocument(new URL(`https://${servername ?? (net.isIPv6(domain) ? `[${domain}]` : domain)}:${port}/`), {
        maxBytes: HSTS_MAX_BYTES,
      })
      .then(
        (response) => {
          const value = response.final.headers['strict-transport-security'];
          return { present: value !== undefined, maxAge: value === undefined ? null : hstsMaxAge(value) };
        },
        (error: unknown) => {
          if (error instanceof ProbeError && error.kind === 'ABORTED') throw error;
          return null;
        },
      );
    // The fetch has its own bound (http.timeoutMs); the rating's deadline is the one that counts here.
    const hstsCheck = budget.within(hstsFetch, null);

    const chainCheck =
      main !== null && !main.authorized && MISSING_ISSUER.has(main.authorizationError ?? '')
        ? budget.within(
            trustedThroughAia(
              ctx,
              main.peerChain.map((c) => c.der),
              now,
            ),
            false,
          )
        : Promise.resolve(false);

    const [orders, groupResults, hsts, aiaTrusted] = await Promise.all([
      Promise.all(orderChecks),
      Promise.all(groupChecks),
      hstsCheck,
      chainCheck,
      Promise.all(familyProbes),
      Promise.all(tls13Probes),
      Promise.all(legacyChecks),
    ]);

    const acceptedList = [...accepted.values()];
    const acceptedCount = (v: RatedVersion) => acceptedList.filter((a) => a.version === v).length;
    const orderVerdict = orders
      .filter((o) => acceptedCount(o.version) >= 2 && o.suite !== undefined)
      .sort((a, b) => NODE_VERSIONS.indexOf(b.version) - NODE_VERSIONS.indexOf(a.version))[0];
    const serverOrder =
      orderVerdict === undefined
        ? null
        : preferred.find((p) => p.version === orderVerdict.version)?.name === orderVerdict.suite?.name;

    const groups = groupResults.filter((g): g is string => g !== null);
    const canOfferPostQuantum = offer.groups.some((g) => POST_QUANTUM_GROUPS.includes(g));

    return tlsRatingData(
      {
        host: domain,
        ip,
        port,
        durationMs: Math.round((performance.now() - started) * 100) / 100,
        partial: budget.exhausted,
        handshakes: budget.used,
        protocols,
        accepted: acceptedList,
        preferred,
        serverOrder,
        groups,
        // the light grade saw only the groups its handshakes used: a post-quantum one proves support, none proves nothing
        postQuantum: !canOfferPostQuantum
          ? null
          : groups.some((g) => POST_QUANTUM_GROUPS.includes(g))
            ? true
            : light
              ? null
              : false,
        light,
        dhBits,
        certificate: main === null ? null : observedCertificate(domain, main, aiaTrusted, now),
        hsts,
      },
      mozillaGuidelines(),
    );
  } finally {
    budget.close();
  }
}

function failureText(reason: unknown): string {
  return reason instanceof Error ? reason.message : String(reason);
}

/** Nothing answered in TLS at all: the target cannot be rated (a 502, or a 504 for a time-out). */
function throwUnreachable(
  nodeOutcomes: readonly (Outcome<TlsHandshakeResult> | null)[],
  sslv3: Outcome<HelloProbeResult>,
): void {
  const reasons: unknown[] = [];
  const outcomes: (Outcome<unknown> | null)[] = [...nodeOutcomes, sslv3];
  for (const outcome of outcomes) {
    if (outcome !== null && outcome !== SKIPPED && outcome.status === 'rejected') reasons.push(outcome.reason);
  }
  // A TLS alert is an answer: the server speaks TLS, only none of what was offered.
  const tlsAnswered =
    reasons.some((r) => r instanceof ProbeError && r.kind === 'TLS') || fulfilled(sslv3)?.kind === 'alert';
  const connectionFailure = reasons.find((r) => r instanceof ProbeError);
  if (!tlsAnswered && connectionFailure !== undefined) throw connectionFailure;
}
