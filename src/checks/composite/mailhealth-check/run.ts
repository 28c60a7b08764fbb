/**
 * mailhealth-check: the awaiting part. Five parts — mx, spf, dmarc, dkim, blacklist — run at once
 * on the request's check context, reusing the single checks' run functions (mx-lookup, spf-checker,
 * dmarc-checker, dkim-checker, dns-blacklist-checker) and so their per-request loaders: each distinct
 * DNS question is asked once (decisions §9), whichever parts need it. The rules are rules.ts's,
 * the verdict verdict.ts's.
 *
 * Every part follows the same MX hosts — the best MX_MAX_EXCHANGES by preference, of each the first
 * MX_MAX_ADDRESSES_PER_EXCHANGE addresses (fan-out-limits.ts, mx-exchanges.ts) — and says what it left out.
 *
 * Dependencies, each arrow one DNS round trip (the benchmark's critical path):
 * - mx: MX → A/AAAA of every exchange followed;
 * - blacklist: MX → A/AAAA of every exchange followed → one A question per address followed per list
 *   (→ the list's TXT for a listing); with no MX record (not a null MX), the domain's own addresses
 *   (implicit MX, RFC 5321 §5.1) take the exchanges' place;
 * - spf: TXT → TXT of each include/redirect target → … (the walk asks siblings concurrently);
 * - dmarc: _dmarc.<domain> TXT → _dmarc.<organisational domain> TXT when the first has none;
 * - dkim: the configured selectors (dkim.selectors) at once; the selectors of the providers seen in
 *   the MX exchanges and in the include/redirect targets of the domain's own SPF record
 *   (mail-providers.ts) one round trip later. Providers included deeper in the SPF tree are not
 *   looked for: that would hold the DKIM part until the whole tree is walked.
 *
 * A part that fails (a question it cannot do without fails) or is still running after
 * `partBoundMs` is that part's `error` with the reason; the others report as usual. A part whose
 * facts are only partly there (one DKIM selector or one list failed) reports what it has.
 */
import { createPartBound, type PartBound } from '../shared/part-bound.js';
import { NetdiagError } from '../../../errors.js';
import type { ResolvedAddress } from '../../../probes/guard.js';
import type { CheckContext } from '../../../loaders/context.js';
import { runDnsblCheck } from '../../dns/dns-blacklist-checker/run.js';
import { askMx, runMxLookup } from '../../dns/mx-lookup/run.js';
import { followedAddresses } from '../../dns/shared/mx-exchanges.js';
import { txtLookup } from '../../mail/shared/record-lookup.js';
import { runDmarcCheck } from '../../mail/dmarc-checker/run.js';
import { runDkimCheck } from '../../mail/dkim-checker/run.js';
import { runSpfCheck } from '../../mail/spf-checker/run.js';
import { inferProviders } from '../../dns/shared/mail-providers.js';
import { parseSpfRecord, selectSpfRecords, spfIncludeTargets } from '../../mail/spf-checker/syntax.js';
import {
  isPartNotTested,
  MAIL_CHECK_IDS,
  MAIL_CHECK_LABELS,
  mailDetailsNotMeasured,
  partNotTested,
  type BlacklistSkip,
  type MailCheckId,
  type MailDetailsById,
  type PartNotTested,
} from './details.js';
import {
  blacklistFinding,
  dkimFinding,
  dmarcFinding,
  MAIL_PART_BOUND_MS,
  mailCouldNotRun,
  mxFinding,
  specialPurpose,
  spfFinding,
  type BlacklistAddressFacts,
  type BlacklistFacts,
  type DkimFacts,
  type DkimSelectorOutcome,
} from './rules.js';
import type { HostFinding, MxContext } from './transport-rules.js';
import { mailParts, type MailDomain, type MxNames } from './parts.js';
import { verdictOf, type HealthCheckStatus, type Verdict } from '../shared/verdict.js';
import { canonicalName } from '../../../net/dns-name.js';
import { settleWithin, type Finding } from '../shared/finding.js';

export interface MailHealthCheck<K extends MailCheckId = MailCheckId> {
  /** one of the composite's own ids, or a joined part's */
  id: K | (string & {});
  /** the MX host a per-host part's check is about (starttls, dane); null for the domain's checks */
  host: string | null;
  label: string;
  status: HealthCheckStatus;
  summary: string;
  /** why the check could not run (status `error`); null otherwise */
  error: string | null;
  /** an own check's details, a joined part's data under its field, or a PartNotTested */
  details: MailDetailsById[K] | Record<string, unknown> | PartNotTested;
}

export interface MailHealthResult {
  domain: string;
  verdict: Verdict;
  /** in MAIL_CHECK_IDS order (api-v1.md's), then the joined parts' (mail-transport.md's); starttls and dane once per MX host, by priority */
  checks: MailHealthCheck[];
}

export interface MailHealthOptions {
  /** how long each part may run, from the start (default MAIL_PART_BOUND_MS) */
  partBoundMs?: number;
}

export async function runMailHealth(
  ctx: CheckContext,
  domain: string,
  options: MailHealthOptions = {},
): Promise<MailHealthResult> {
  const bound = createPartBound(options.partBoundMs ?? MAIL_PART_BOUND_MS, domain);

  const mxNames = exchangesOf(ctx, domain);
  // whether the domain takes mail at all; unknown (the MX question failed) reads as "it does"
  const nullMx = mxNames.then(
    (m) => m.nullMx,
    () => false,
  );
  const rootSpf = rootSpfIncludes(ctx, domain);

  const spf = runSpfCheck(ctx, domain);

  // each own part's findings, about the domain
  const own: { [K in MailCheckId]: Promise<HostFinding<MailDetailsById[K]>[]> } = {
    mx: runMxLookup(ctx, domain).then((mx) => aboutTheDomain(mxFinding(mx, ctx.config.targets.allow))),
    spf: Promise.all([spf, nullMx]).then(([result, isNull]) => aboutTheDomain(spfFinding(result, isNull))),
    dmarc: Promise.all([runDmarcCheck(ctx, domain), nullMx]).then(([result, isNull]) =>
      aboutTheDomain(dmarcFinding(result, isNull)),
    ),
    dkim: dkimFacts(ctx, domain, mxNames, rootSpf, nullMx).then((facts) => aboutTheDomain(dkimFinding(facts))),
    blacklist: blacklistFacts(ctx, domain, mxNames).then((facts) => aboutTheDomain(blacklistFinding(facts))),
  };

  // the parts that are single checks (./parts.ts): each gathers its facts (one SMTP session per host serves
  // starttls and dane through the loaders), which another may read (tls-rpt: whether MTA-STS or DANE is used)
  const facts = new Map<string, Promise<unknown>>();
  const mail: MailDomain = {
    checks: ctx,
    domain,
    mx: mxNames,
    mxContext: (mx) => mxContext(ctx, mx),
    factsOf: (id) => facts.get(id) ?? Promise.reject(new RangeError(`mailhealth-check: no part ${id}`)),
  };
  for (const part of mailParts.joined) {
    const gathered = part.spec.facts(mail);
    // a failure is settled with the part's findings; until then (or when no part reads it) it is not unhandled
    gathered.catch(() => undefined);
    facts.set(part.spec.id, gathered);
  }

  const failures: NetdiagError[] = [];
  const settled = await Promise.all([
    ...MAIL_CHECK_IDS.map((id) =>
      settle({ id, label: MAIL_CHECK_LABELS[id] }, own[id], bound, failures, () => mailDetailsNotMeasured(id)),
    ),
    ...mailParts.joined.map((part) => {
      const findings = facts.get(part.spec.id)!.then((f) => part.spec.findings(f, mail));
      const wrap = (details: unknown) => (isPartNotTested(details) ? details : { [part.field]: details });
      return settle(part.spec, findings, bound, failures, () => partNotTested('could-not-run'), wrap);
    }),
  ]);
  const checks: MailHealthCheck[] = settled.flat();
  // Not one part could run (the resolver is down, say): that is a check that could not be done
  // (decisions §2: 502/504 with the upstream's reason), not a verdict about the domain.
  if (checks.every((c) => c.status === 'error') && failures[0]) throw failures[0];
  return { domain, verdict: verdictOf(checks), checks };
}

function mxContext(ctx: CheckContext, mx: MxNames): MxContext {
  return { nullMx: mx.nullMx, hostCount: mx.exchanges.length, smtpProbes: ctx.config.smtp.enabled };
}

function aboutTheDomain<D>(finding: Finding<D>): HostFinding<D>[] {
  return [{ host: null, ...finding }];
}

/**
 * One part's findings as checks, a per-host part's labelled with the host; the part's failure or its
 * running past the bound is one `error` check with `notRun` details. `wrap` shapes a finding's details
 * (a joined part's data under its field).
 */
async function settle(
  part: { id: string; label: string },
  findings: Promise<HostFinding<unknown>[]>,
  bound: PartBound,
  failures: NetdiagError[],
  notRun: () => unknown,
  wrap: (details: unknown) => unknown = (details) => details,
): Promise<MailHealthCheck[]> {
  const { id, label } = part;
  const settled = await settleWithin(bound, findings, (e): HostFinding<unknown>[] => {
    failures.push(e);
    return aboutTheDomain(mailCouldNotRun(e.message, notRun()));
  });
  return settled.map((finding) => ({
    id,
    host: finding.host,
    label: finding.host === null ? label : `${label} on ${finding.host}`,
    status: finding.status,
    summary: finding.summary,
    error: finding.error ?? null,
    details: wrap(finding.details) as MailHealthCheck['details'],
  }));
}

async function exchangesOf(ctx: CheckContext, domain: string): Promise<MxNames> {
  const mx = await askMx(ctx, domain);
  return {
    nullMx: mx.nullMx,
    exchanges: mx.exchanges.map((m) => canonicalName(m.exchange)),
    omittedExchanges: mx.omittedExchanges,
    rcode: mx.rcode,
  };
}

/** include and redirect targets of the domain's first SPF record (its TXT answer is the SPF part's first question). */
async function rootSpfIncludes(ctx: CheckContext, domain: string): Promise<string[]> {
  const answer = await txtLookup(ctx)(domain);
  const record = selectSpfRecords(answer.rcode === 'NXDOMAIN' ? [] : answer.records)[0];
  return record === undefined ? [] : spfIncludeTargets(parseSpfRecord(record).terms);
}

/**
 * Every configured selector at once; then the selectors of the providers detected, those not
 * asked yet. Evidence that cannot be had (a failed MX or TXT question) is evidence of nothing:
 * the other parts report that failure.
 */
async function dkimFacts(
  ctx: CheckContext,
  domain: string,
  mxNames: Promise<MxNames>,
  rootSpf: Promise<string[]>,
  nullMx: Promise<boolean>,
): Promise<DkimFacts> {
  const asked = new Map<string, Promise<DkimSelectorOutcome>>();
  const probe = (selectors: readonly string[]) => {
    for (const selector of selectors) {
      if (asked.has(selector)) continue;
      const outcome = runDkimCheck(ctx, domain, selector).then(
        (result): DkimSelectorOutcome => ({ selector, result }),
        (e: unknown): DkimSelectorOutcome => {
          if (e instanceof NetdiagError) return { selector, failure: e.message };
          throw e;
        },
      );
      // a bug's rejection is rethrown by the Promise.all below, possibly after this function's next await
      outcome.catch(() => undefined);
      asked.set(selector, outcome);
    }
  };
  probe(ctx.config.dkim.selectors);
  const [exchanges, includes] = await Promise.all([
    mxNames.then(
      (m) => m.exchanges,
      () => [],
    ),
    rootSpf.catch(() => []),
  ]);
  const inference = inferProviders(exchanges, includes);
  probe(inference.selectors);
  return { nullMx: await nullMx, outcomes: await Promise.all(asked.values()), providers: inference.providers };
}

/**
 * The IPv4 addresses of every MX exchange followed (not only the first: the first
 * MX_MAX_ADDRESSES_PER_EXCHANGE of each), each asked about on every list once however many exchanges
 * share it, in the order of the exchanges' priority. Special-purpose addresses are not asked about:
 * public lists do not list them, and the mx part reports them. With no MX record the domain's own
 * addresses stand in (RFC 5321 §5.1).
 */
async function blacklistFacts(ctx: CheckContext, domain: string, mxNames: Promise<MxNames>): Promise<BlacklistFacts> {
  const mx = await mxNames;
  const listCount = ctx.config.dnsbl.zones.length;
  const implicitMx = !mx.nullMx && mx.exchanges.length === 0;
  const nothingOmitted = { omittedExchanges: 0, omittedAddresses: 0 };
  if (mx.nullMx || (implicitMx && mx.rcode === 'NXDOMAIN'))
    return { nullMx: mx.nullMx, implicitMx, addresses: [], skipped: [], listCount, ...nothingOmitted };
  const hosts = implicitMx ? [domain] : mx.exchanges;

  const checks = new Map<string, ReturnType<typeof runDnsblCheck>>();
  let omittedAddresses = 0;
  const resolved = await Promise.all(
    hosts.map(
      async (host): Promise<{ host: string; addresses: ResolvedAddress[] } | { host: string; failure: string }> => {
        let addresses: ResolvedAddress[];
        try {
          const all = followedAddresses(await ctx.addresses(host));
          addresses = all.followed;
          omittedAddresses += all.omitted;
        } catch (e) {
          if (e instanceof NetdiagError) return { host, failure: e.message };
          throw e;
        }
        // each address's lists are asked as soon as the address is known, not after every exchange
        for (const a of addresses) {
          if (
            a.family === 4 &&
            specialPurpose(a.address, ctx.config.targets.allow) === null &&
            !checks.has(a.address)
          ) {
            const check = runDnsblCheck(ctx, { kind: 'ip', ip: a.address, family: 4 });
            // a failure (the request's question budget spent, the request ending) is rethrown by the
            // Promise.all below, after the other exchanges resolve; until then it must not count as unhandled
            check.catch(() => undefined);
            checks.set(a.address, check);
          }
        }
        return { host, addresses };
      },
    ),
  );

  const listsOf = new Map(
    await Promise.all([...checks].map(async ([ip, check]) => [ip, (await check).results] as const)),
  );
  const byIp = new Map<string, BlacklistAddressFacts>();
  const skipped: BlacklistSkip[] = [];
  const skippedIps = new Set<string>();
  for (const entry of resolved) {
    if ('failure' in entry) {
      skipped.push({ target: entry.host, reason: entry.failure });
      continue;
    }
    for (const { address, family } of entry.addresses) {
      const lists = listsOf.get(address);
      if (lists !== undefined) {
        const facts = byIp.get(address) ?? { ip: address, hosts: [], lists };
        if (!facts.hosts.includes(entry.host)) facts.hosts.push(entry.host);
        byIp.set(address, facts);
      } else if (!skippedIps.has(address)) {
        skippedIps.add(address);
        const range = specialPurpose(address, ctx.config.targets.allow);
        skipped.push({
          target: address,
          reason:
            family === 6
              ? `IPv6 address of ${entry.host}: block lists are checked for IPv4 addresses`
              : `${range} address of ${entry.host}: public block lists do not list it`,
        });
      }
    }
  }
  return {
    nullMx: false,
    implicitMx,
    addresses: [...byIp.values()],
    skipped,
    listCount,
    omittedExchanges: mx.omittedExchanges,
    omittedAddresses,
  };
}
