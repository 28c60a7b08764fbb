/**
 * mailhealth-check: the rule of each check — what was found → status, a one-sentence summary (what
 * was found and, when it is not ok, what to do) and its details (api-v1.md). Pure: no I/O; every
 * threshold is a named constant below, and the table of rules in docs/tools/notes/mailhealth-check.md
 * is written from this file.
 *
 * Status meanings (decisions §4): ok; info (worth knowing, nothing to fix); warning (should be
 * fixed); critical (mail is lost, rejected or forgeable now: fix first); error (the check could not
 * run — its summary says why; made by `mailNotRunFinding`). The verdict is verdict.ts's.
 *
 * A null MX (RFC 7505, "MX 0 .") says the domain accepts no mail. The rules then adapt: mx and
 * blacklist are `info` (nothing receives mail, nothing to look up), a missing DKIM key is `info`
 * (nothing is expected to be signed), and SPF and DMARC are still wanted — a domain that sends no
 * mail should say so with "v=spf1 -all" and "p=reject" so that nobody can send in its name
 * (RFC 7505 §4.2, M3AAWG parked-domain practice) — but their absence is a `warning`, not `critical`.
 */
import { COMPOSITE_PART_BOUND_MS } from '../shared/part-bound.js';
import { MX_MAX_ADDRESSES_PER_EXCHANGE, MX_MAX_EXCHANGES } from '../../../loaders/fan-out-limits.js';
import { parseIp, refusedRange } from '../../../net/address-class.js';
import type { DnsblListResult } from '../../dns/dns-blacklist-checker/dnsbl.js';
import type { MxHost, MxLookupResult } from '../../dns/mx-lookup/run.js';
import type { SpfCheckerResult } from '../../mail/spf-checker/run.js';
import type { DkimCheckResult } from '../../mail/dkim-checker/dkim.js';
import type { DmarcCheckResult } from '../../mail/dmarc-checker/dmarc.js';
import type { DetectedProvider } from '../../dns/shared/mail-providers.js';
import { parseSpfRecord } from '../../mail/spf-checker/syntax.js';
import {
  mailDetailsNotMeasured,
  type BlacklistDetails,
  type BlacklistResult,
  type BlacklistSkip,
  type DkimDetails,
  type DkimSelectorFailure,
  type DmarcDetails,
  type MailCheckId,
  type MailDetailsById,
  type MxDetails,
  type SpfDetails,
} from './details.js';
import { listInProse, plural, type HealthCheckStatus } from '../shared/verdict.js';
import { couldNotRun, withoutFinalStop, type Finding } from '../shared/finding.js';

/* ------------------------------------------------------------------ thresholds */

/**
 * Each part of the check gets this long, counted from the start of the request; a part still
 * running then is that part's `error` (decisions §8). 5 s under the 30 s composite bound, so the
 * other parts' findings and the verdict still reach the caller.
 */
export const MAIL_PART_BOUND_MS = COMPOSITE_PART_BOUND_MS;
/** SPF: this many DNS-querying terms or more (of the limit of 10, RFC 7208 §4.6.4) is a warning: one more include breaks the record. */
export const SPF_LOOKUPS_NEAR_LIMIT = 9;
/** Blacklist: an address listed on at least this many lists is critical (one listing already costs deliveries). */
export const BLACKLIST_LISTINGS_CRITICAL = 1;

/** A check that could not run (decisions §4 `error`): the reason, and what to do. */
export function mailNotRunFinding<K extends MailCheckId>(id: K, reason: string): Finding<MailDetailsById[K]> {
  return mailCouldNotRun(reason, mailDetailsNotMeasured(id));
}

/** A part that could not run, with the details it has then (a joined part's: PartNotTested). */
export function mailCouldNotRun<D>(reason: string, details: D): Finding<D> {
  return couldNotRun(reason, details, "check that the domain's name servers answer");
}

/* ------------------------------------------------------------------ mx */

/**
 * - NXDOMAIN: critical (the domain does not exist).
 * - null MX: info (the domain says it accepts no mail, RFC 7505).
 * - no MX record: warning (senders fall back to the domain's own address, RFC 5321 §5.1).
 * - no MX host has an address: critical; some have none: warning.
 * - an MX host's address is special-purpose (private, loopback, …; RFC 6890): warning.
 * - more than MX_MAX_EXCHANGES MX hosts: info (only the best are checked; senders almost never use the rest).
 * - otherwise ok.
 */
export function mxFinding(mx: MxLookupResult, allow: readonly string[]): Finding<MxDetails> {
  const details: MxDetails = {
    hosts: mx.hosts,
    total: mx.hosts.length + mx.omittedExchanges,
    omittedExchanges: mx.omittedExchanges,
    nullMx: mx.nullMx,
    rcode: mx.rcode,
  };
  const finding = (status: HealthCheckStatus, summary: string) => ({ status, summary, details });
  if (mx.rcode === 'NXDOMAIN') {
    return finding(
      'critical',
      `${mx.domain} does not exist (NXDOMAIN), so no mail can reach it; register the domain or check its spelling.`,
    );
  }
  if (mx.nullMx) {
    return finding(
      'info',
      'The domain publishes a null MX ("MX 0 ."): it says it accepts no mail (RFC 7505), so senders reject mail to it at once.',
    );
  }
  if (mx.hosts.length === 0) {
    return finding(
      'warning',
      'The domain publishes no MX record, so senders fall back to its own address (RFC 5321 §5.1); publish MX records for the servers that receive its mail, or a null MX ("MX 0 .") if it receives none.',
    );
  }
  const unresolved = mx.hosts.filter((h) => h.ip === '');
  if (unresolved.length === mx.hosts.length) {
    return finding(
      'critical',
      `None of the ${plural(mx.hosts.length, 'MX host', 'MX hosts')} (${names(unresolved)}) has an address, so mail cannot be delivered; give ${unresolved.length === 1 ? 'it an A record' : 'them A records'} or point the MX records at working mail servers.`,
    );
  }
  if (unresolved.length > 0) {
    return finding(
      'warning',
      `${names(unresolved)} ${unresolved.length === 1 ? 'has' : 'have'} no address, so senders that try ${unresolved.length === 1 ? 'it' : 'them'} lose time or mail; fix ${unresolved.length === 1 ? 'its A record' : 'their A records'} or remove ${unresolved.length === 1 ? 'that MX record' : 'those MX records'}.`,
    );
  }
  const internal = mx.hosts.flatMap((h) => {
    const verdict = specialPurpose(h.ip, allow);
    return verdict === null ? [] : [`${h.exchange} (${h.ip}, ${verdict})`];
  });
  if (internal.length > 0) {
    return finding(
      'warning',
      `${listInProse(internal)} ${internal.length === 1 ? 'is' : 'are'} not reachable from the Internet, so senders cannot deliver there; point the MX records at public addresses.`,
    );
  }
  if (mx.omittedExchanges > 0) {
    return finding(
      'info',
      `${plural(mx.hosts.length + mx.omittedExchanges, 'MX host', 'MX hosts')}: only the ${MX_MAX_EXCHANGES} best by preference were checked; senders try them in that order and stop after a few (RFC 5321 §5.1), so the other ${mx.omittedExchanges} are almost never used: remove those MX records.`,
    );
  }
  const primary = mx.hosts[0]!;
  const provider = primary.provider === null ? '' : ` (${primary.provider})`;
  return finding(
    'ok',
    `${plural(mx.hosts.length, 'MX host', 'MX hosts')} with addresses; mail goes first to ${primary.exchange}${provider}, priority ${primary.priority}.`,
  );
}

/* ------------------------------------------------------------------ spf */

/**
 * First matching rule wins:
 * - no SPF record: critical (null MX: warning, publish "v=spf1 -all");
 * - permerror (several records, syntax errors, over 10 DNS-querying terms or 2 void lookups, an
 *   include without a record; RFC 7208 §4.5, §4.6.4): critical — receivers treat it as no SPF;
 * - "+all": critical — every host on the Internet passes;
 * - temperror (a DNS question inside the include tree failed): warning;
 * - ends neutral ("?all", or neither "all" nor redirect=): warning — it does not say what others get;
 * - SPF_LOOKUPS_NEAR_LIMIT or more DNS-querying terms: warning;
 * - the ptr mechanism (RFC 7208 §5.5: SHOULD NOT be used): warning;
 * - any other remark of spf-checker, or a tree that could not be fully followed (macros): info;
 * - otherwise ok.
 */
export function spfFinding(spf: SpfCheckerResult, nullMx: boolean): Finding<SpfDetails> {
  const details: SpfDetails = {
    record: spf.record,
    recordCount: spf.recordCount,
    mechanismCount: spf.mechanisms.length,
    evaluation: spf.evaluation,
    lookupCount: spf.lookupCount,
    lookupLimit: spf.lookupLimit,
  };
  const finding = (status: HealthCheckStatus, summary: string) => ({ status, summary, details });
  if (!spf.found) {
    return nullMx
      ? finding(
          'warning',
          'The domain takes no mail and publishes no SPF record, so receivers cannot tell that it sends none either; publish "v=spf1 -all".',
        )
      : finding(
          'critical',
          'No SPF record, so receivers cannot tell your servers from forgers; publish one TXT record such as "v=spf1 mx -all" listing every server and service that sends your mail.',
        );
  }
  if (spf.multiple) {
    return finding(
      'critical',
      `The domain publishes ${spf.recordCount} SPF records, so receivers treat SPF as an error (permerror, RFC 7208 §4.5), as if there were none; merge them into one record.`,
    );
  }
  if (spf.evaluation === 'permerror') {
    const reason = withoutFinalStop(spf.errors[0] ?? 'the record is invalid');
    return finding(
      'critical',
      `Receivers treat this SPF record as an error (permerror: ${reason}), as if there were none; correct the record.`,
    );
  }
  const parsed = parseSpfRecord(spf.record);
  const all = parsed.terms.find((t) => t.kind === 'mechanism' && t.name === 'all');
  if (all?.kind === 'mechanism' && all.qualifier === '+') {
    return finding(
      'critical',
      `The record ends in "${all.text}", so every host on the Internet passes SPF; end it with "-all" (or "~all") after listing your senders.`,
    );
  }
  if (spf.evaluation === 'temperror') {
    return finding(
      'warning',
      `A DNS question inside the include tree failed (${withoutFinalStop(spf.temporaryErrors[0] ?? 'temperror')}), so receivers may defer mail (temperror); check that every included domain answers.`,
    );
  }
  if (all?.kind === 'mechanism' && all.qualifier === '?') {
    return finding(
      'warning',
      'The record ends in "?all" (neutral), which tells receivers nothing about other hosts; end it with "-all" or "~all".',
    );
  }
  if (parsed.endsNeutral) {
    return finding(
      'warning',
      'The record has no "all" and no redirect=, so mail from other hosts gets neutral (RFC 7208 §4.7); end it with "-all" or "~all".',
    );
  }
  if (spf.lookupCount >= SPF_LOOKUPS_NEAR_LIMIT) {
    return finding(
      'warning',
      `The record needs ${spf.lookupCount} of at most ${spf.lookupLimit} DNS lookups (RFC 7208 §4.6.4), so one more include breaks it; replace includes with ip4:/ip6: ranges where you can.`,
    );
  }
  if (parsed.terms.some((t) => t.kind === 'mechanism' && t.name === 'ptr')) {
    return finding(
      'warning',
      'The record uses the ptr mechanism, which is slow and unreliable (RFC 7208 §5.5) and ignored by some receivers; list the addresses with ip4:/ip6: instead.',
    );
  }
  const remark = spf.warnings[0] ?? spf.notEvaluated[0];
  if (remark !== undefined) {
    return finding('info', `The record is valid, with a remark: ${withoutFinalStop(remark)}.`);
  }
  return finding(
    'ok',
    `One valid SPF record ending in "${all?.text ?? 'redirect='}", using ${spf.lookupCount} of ${spf.lookupLimit} DNS lookups.`,
  );
}

/* ------------------------------------------------------------------ dmarc */

/**
 * First matching rule wins:
 * - several DMARC records: critical (none applies, RFC 7489 §6.6.3);
 * - no record (neither at _dmarc.<domain> nor at the organisational domain): warning;
 * - a record that is not valid (receivers ignore it): critical;
 * - null MX and a policy other than reject: warning (a domain that sends no mail should reject);
 * - p=none (monitoring only): info;
 * - pct below 100 with quarantine/reject: info;
 * - otherwise (quarantine or reject) ok.
 */
export function dmarcFinding(dmarc: DmarcCheckResult, nullMx: boolean): Finding<DmarcDetails> {
  const details: DmarcDetails = {
    record: dmarc.record,
    policy: dmarc.effectivePolicy,
    found: dmarc.found,
    inherited: dmarc.inherited,
    queriedName: dmarc.queriedName,
  };
  const finding = (status: HealthCheckStatus, summary: string) => ({ status, summary, details });
  const name = `_dmarc.${dmarc.domain}`;
  if (dmarc.multiple) {
    return finding(
      'critical',
      `${dmarc.queriedName} has more than one DMARC record, so none applies (RFC 7489 §6.6.3); keep exactly one.`,
    );
  }
  if (!dmarc.found) {
    return nullMx
      ? finding(
          'warning',
          `No DMARC record, so nothing stops others from sending mail in the domain's name; publish "v=DMARC1; p=reject" at ${name}.`,
        )
      : finding(
          'warning',
          `No DMARC record, so receivers apply no policy to mail that fails SPF and DKIM; publish one at ${name}, starting with "v=DMARC1; p=none; rua=mailto:…" to collect reports.`,
        );
  }
  if (!dmarc.valid || dmarc.effectivePolicy === null) {
    const reason = withoutFinalStop(dmarc.errors[0] ?? 'the record is not valid');
    return finding(
      'critical',
      `The DMARC record at ${dmarc.queriedName} is not valid (${reason}), so receivers ignore it; correct it.`,
    );
  }
  const where = dmarc.inherited ? ` (inherited from ${dmarc.queriedName})` : '';
  if (nullMx && dmarc.effectivePolicy !== 'reject') {
    return finding(
      'warning',
      `The DMARC policy is ${dmarc.effectivePolicy}${where}, but a domain that sends no mail should reject mail in its name; set p=reject.`,
    );
  }
  if (dmarc.effectivePolicy === 'none') {
    return finding(
      'info',
      `The DMARC policy is none${where}: receivers only report and still deliver mail that fails; move to quarantine or reject once the reports show your own mail passes.`,
    );
  }
  const pct = Number(dmarc.tags.pct ?? '100');
  if (Number.isInteger(pct) && pct < 100) {
    return finding(
      'info',
      `The DMARC policy ${dmarc.effectivePolicy}${where} applies to only ${pct}% of failing mail; raise pct to 100 when you are ready.`,
    );
  }
  return finding('ok', `The DMARC policy is ${dmarc.effectivePolicy}${where}.`);
}

/* ------------------------------------------------------------------ dkim */

export type DkimSelectorOutcome = { selector: string; result: DkimCheckResult } | { selector: string; failure: string };

export interface DkimFacts {
  nullMx: boolean;
  /** one per selector asked, in the order asked */
  outcomes: DkimSelectorOutcome[];
  providers: DetectedProvider[];
}

/**
 * DKIM selectors cannot be listed, so only the selectors checked can be found (dkim.selectors plus
 * the defaults of the providers recognised in MX and SPF). First matching rule wins:
 * - every selector's question failed: error;
 * - no key among the selectors checked: warning — never critical, the domain may sign with another
 *   selector (null MX: info, a domain that takes no mail need not sign any);
 * - keys found, none usable (revoked, or with errors such as an undecodable or too short key): warning;
 * - a key found has errors, though another is usable: warning;
 * - a usable key has remarks (short RSA key, testing mode, sha1 only): info;
 * - otherwise ok. (A revoked key beside a usable one is an old selector after a rotation: ok.)
 */
export function dkimFinding(facts: DkimFacts): Finding<DkimDetails> {
  const found: DkimCheckResult[] = [];
  const failed: DkimSelectorFailure[] = [];
  for (const o of facts.outcomes) {
    if ('failure' in o) failed.push({ selector: o.selector, reason: o.failure });
    else if (o.result.found) found.push(o.result);
  }
  const details: DkimDetails = {
    selectorsFound: found.map((r) => r.selector),
    selectorsChecked: facts.outcomes.map((o) => o.selector),
    providers: facts.providers.map((p) => p.name),
    failedSelectors: failed,
  };
  const finding = (status: HealthCheckStatus, summary: string) => ({ status, summary, details });
  if (facts.outcomes.length > 0 && failed.length === facts.outcomes.length) {
    return { ...mailNotRunFinding('dkim', failed[0]!.reason), details };
  }
  const checked = `${plural(facts.outcomes.length, 'selector', 'selectors')} checked (${listInProse(facts.outcomes.map((o) => o.selector))})`;
  if (found.length === 0) {
    const unanswered = failed.length > 0 ? `, and ${plural(failed.length, 'question', 'questions')} failed` : '';
    if (facts.nullMx) {
      return finding(
        'info',
        `No DKIM key among the ${checked}${unanswered}, as expected of a domain that takes no mail.`,
      );
    }
    return finding(
      'warning',
      `No DKIM key among the ${checked}${unanswered}; if the domain signs its mail with another selector that is fine, otherwise publish the key your mail service gives you at <selector>._domainkey.<domain>.`,
    );
  }
  const usable = found.filter((r) => r.hasPublicKey && r.errors.length === 0);
  const broken = found.filter((r) => !r.revoked && r.errors.length > 0);
  if (usable.length === 0) {
    const why = broken[0]
      ? `${broken[0].selector}: ${withoutFinalStop(broken[0].errors[0]!)}`
      : 'every key found is revoked (empty p=)';
    return finding(
      'warning',
      `DKIM keys were found but none can verify signatures (${why}); publish a valid key for the selector your mail is signed with.`,
    );
  }
  if (broken.length > 0) {
    return finding(
      'warning',
      `A DKIM key is usable (${usable[0]!.selector}), but the key at ${broken[0]!.selector} has an error (${withoutFinalStop(broken[0]!.errors[0]!)}); fix or remove that record.`,
    );
  }
  const remarked = usable.find((r) => r.warnings.length > 0 || r.testing);
  if (remarked) {
    const remark =
      remarked.warnings[0] ?? 't=y: the domain is testing DKIM, so receivers treat failures as unsigned mail';
    return finding('info', `DKIM key found at ${remarked.selector}, with a remark: ${withoutFinalStop(remark)}.`);
  }
  return finding(
    'ok',
    `DKIM ${usable.length === 1 ? 'key' : 'keys'} found for ${listInProse(usable.map((r) => r.selector))} among the ${checked}.`,
  );
}

/* ------------------------------------------------------------------ blacklist */

export interface BlacklistAddressFacts {
  ip: string;
  hosts: string[];
  /** one per list, in dnsbl.zones order */
  lists: DnsblListResult[];
}

export interface BlacklistFacts {
  nullMx: boolean;
  /** the domain has no MX record, so its own addresses were checked (RFC 5321 §5.1) */
  implicitMx: boolean;
  addresses: BlacklistAddressFacts[];
  skipped: BlacklistSkip[];
  listCount: number;
  /** MX hosts beyond the MX_MAX_EXCHANGES followed: their addresses were not asked about */
  omittedExchanges: number;
  /** addresses beyond the first MX_MAX_ADDRESSES_PER_EXCHANGE of a host, not asked about */
  omittedAddresses: number;
}

/**
 * First matching rule wins:
 * - null MX: info (no mail server, nothing to check);
 * - no IPv4 address to check: info (block lists are keyed by IPv4 address) — unless MX hosts could
 *   not be resolved and nothing was checked: error;
 * - every question to every list failed: error;
 * - an address listed on BLACKLIST_LISTINGS_CRITICAL or more lists: critical; on fewer (but some): warning;
 * - nothing listed, but some lists gave no usable answer (or some MX hosts could not be
 *   resolved): info — the listing may be hidden, but that says nothing about the domain;
 * - nothing listed, but MX hosts or addresses were left out (beyond the MX_MAX_EXCHANGES best, or
 *   the first MX_MAX_ADDRESSES_PER_EXCHANGE of a host): info, naming what was left out;
 * - otherwise ok.
 */
export function blacklistFinding(facts: BlacklistFacts): Finding<BlacklistDetails> {
  const results: BlacklistResult[] = facts.addresses.map((a) => ({
    ip: a.ip,
    listed: a.lists.some((l) => l.status === 'listed'),
    listedOn: a.lists.filter((l) => l.status === 'listed').map((l) => l.name),
    hosts: a.hosts,
    failedLists: a.lists.filter((l) => l.status === 'error').map((l) => `${l.name}: ${l.reason ?? 'no usable answer'}`),
  }));
  const listed = results.filter((r) => r.listed);
  const details: BlacklistDetails = {
    checkedIps: results.length,
    listedIps: listed.length,
    cleanIps: results.length - listed.length,
    results,
    listCount: facts.listCount,
    skipped: facts.skipped,
    omittedExchanges: facts.omittedExchanges,
    omittedAddresses: facts.omittedAddresses,
  };
  const finding = (status: HealthCheckStatus, summary: string) => ({ status, summary, details });
  const unresolvedHosts = facts.skipped.filter((s) => parseIp(s.target) === null);
  const leftOut = leftOutOf(facts);
  if (facts.nullMx)
    return finding('info', 'The domain takes no mail (null MX), so there is no mail server address to check.');
  if (results.length === 0) {
    if (unresolvedHosts.length > 0) return { ...mailNotRunFinding('blacklist', unresolvedHosts[0]!.reason), details };
    const where = facts.implicitMx ? 'the domain (it has no MX record)' : 'the MX hosts';
    const notLooked = leftOut.length > 0 ? ` (${leftOut} not looked up)` : '';
    return finding(
      'info',
      `No public IPv4 address of ${where} to look up; block lists are keyed by IPv4 address${notLooked}.`,
    );
  }
  const questions = results.length * facts.listCount;
  const failures = results.reduce((n, r) => n + r.failedLists.length, 0);
  if (questions > 0 && failures === questions) {
    return { ...mailNotRunFinding('blacklist', `no block list answered: ${results[0]!.failedLists[0]}`), details };
  }
  const critical = listed.filter((r) => r.listedOn.length >= BLACKLIST_LISTINGS_CRITICAL);
  if (critical.length > 0) {
    const which = critical.map((r) => `${r.ip} (${listInProse(r.hosts)}) on ${listInProse(r.listedOn)}`);
    return finding(
      'critical',
      `${listInProse(which)}: receivers using ${critical.length === 1 && critical[0]!.listedOn.length === 1 ? 'that list' : 'those lists'} reject or junk mail from it; find the cause (an open relay, a compromised account) and request delisting from each list.`,
    );
  }
  const checked = `${plural(results.length, 'address', 'addresses')} on ${plural(facts.listCount, 'list', 'lists')}`;
  if (listed.length > 0) {
    const which = listed.map((r) => `${r.ip} (${listInProse(r.hosts)}) on ${listInProse(r.listedOn)}`);
    return finding(
      'warning',
      `${listInProse(which)}: some receivers may junk mail from it; find the cause and request delisting.`,
    );
  }
  if (failures > 0 || unresolvedHosts.length > 0 || leftOut.length > 0) {
    const gaps = [
      ...(failures > 0
        ? [
            `${plural(failures, 'list answer', 'list answers')} unusable (${results.find((r) => r.failedLists.length > 0)!.failedLists[0]})`,
          ]
        : []),
      ...(unresolvedHosts.length > 0
        ? [`${listInProse(unresolvedHosts.map((h) => h.target))} could not be resolved`]
        : []),
      ...(leftOut.length > 0 ? [`${leftOut} not looked up`] : []),
    ];
    return finding('info', `No listing found for ${checked}, but ${listInProse(gaps)}.`);
  }
  return finding('ok', `No listing found for ${checked}.`);
}

/** What the blacklist part left out by the fan-out caps, in words with their verb ("… were"); "" when nothing. */
function leftOutOf(facts: BlacklistFacts): string {
  const parts = [
    ...(facts.omittedExchanges > 0
      ? [`${plural(facts.omittedExchanges, 'MX host', 'MX hosts')} beyond the ${MX_MAX_EXCHANGES} best`]
      : []),
    ...(facts.omittedAddresses > 0
      ? [
          `${plural(facts.omittedAddresses, 'address', 'addresses')} beyond the first ${MX_MAX_ADDRESSES_PER_EXCHANGE} of a host`,
        ]
      : []),
  ];
  if (parts.length === 0) return '';
  const one = parts.length === 1 && facts.omittedExchanges + facts.omittedAddresses === 1;
  return `${listInProse(parts)} ${one ? 'was' : 'were'}`;
}

/* ------------------------------------------------------------------ helpers */

/**
 * The special-purpose range of an address (RFC 6890), or null for a public one, one that
 * `targets.allow` treats as public, or no address.
 */
export function specialPurpose(ip: string, allow: readonly string[]): string | null {
  if (ip === '' || parseIp(ip) === null) return null;
  return refusedRange(ip, allow);
}

function names(hosts: readonly MxHost[]): string {
  return listInProse(hosts.map((h) => h.exchange));
}
