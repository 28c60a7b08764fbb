/**
 * mailhealth-check: its checks (ids in api-v1.md order, labels) and the details each reports
 * (api-v1.md, with added fields). A check that could not run reports the same keys with nothing
 * found (null), so that clients can read details by id whatever the status; a transport part, whose
 * details are a single check's data, reports a PartNotTested instead.
 */
import type { MxHost } from '../../dns/mx-lookup/run.js';

/**
 * api-v1.md's five; the mail transport parts of mail-transport.md (mta-sts, tls-rpt, starttls, dane,
 * bimi) join from their checks' folders (./parts.ts).
 */
export const MAIL_CHECK_IDS = ['mx', 'spf', 'dmarc', 'dkim', 'blacklist'] as const;
export type MailCheckId = (typeof MAIL_CHECK_IDS)[number];

export const MAIL_CHECK_LABELS: Readonly<Record<MailCheckId, string>> = {
  mx: 'MX records',
  spf: 'SPF record',
  dmarc: 'DMARC policy',
  dkim: 'DKIM keys',
  blacklist: 'Blacklists',
};

export interface MxDetails {
  /** as mx-lookup's `hosts`: the hosts followed, by priority, each with its addresses and recognised provider */
  hosts: MxHost[] | null;
  /** number of MX hosts, those not followed included (a null MX counts none) */
  total: number | null;
  /** as mx-lookup's: MX hosts beyond the best MX_MAX_EXCHANGES, not followed by any part */
  omittedExchanges: number | null;
  nullMx: boolean | null;
  rcode: 'NOERROR' | 'NXDOMAIN' | null;
}

export interface SpfDetails {
  /** the first SPF record; "" when there is none */
  record: string | null;
  /** SPF records published (more than one is a permerror) */
  recordCount: number | null;
  /** terms of the first record after "v=spf1", as spf-checker's `mechanisms` */
  mechanismCount: number | null;
  /** spf-checker's evaluation: none | ok | permerror | temperror */
  evaluation: string | null;
  /** DNS-querying terms in the whole include tree, and the limit (RFC 7208 §4.6.4) */
  lookupCount: number | null;
  lookupLimit: number | null;
}

export interface DmarcDetails {
  /** the record that applies; "" when none */
  record: string | null;
  /** the policy that applies to mail from the domain (none | quarantine | reject); null when no valid record applies (as dmarc-checker) */
  policy: string | null;
  found: boolean | null;
  /** the record is the organisational domain's (RFC 7489 §6.6.3) */
  inherited: boolean | null;
  /** the name whose record applies, or was asked last */
  queriedName: string | null;
}

export interface DkimSelectorFailure {
  selector: string;
  reason: string;
}

export interface DkimDetails {
  /** selectors with a DKIM key record (RFC 6376 §3.6.1), in the order checked */
  selectorsFound: string[] | null;
  /** every selector asked: the configured ones (dkim.selectors), then those of the providers detected */
  selectorsChecked: string[] | null;
  /** mail providers recognised from the MX hosts and the SPF include tree */
  providers: string[] | null;
  /** selectors whose question failed (their absence is unknown) */
  failedSelectors: DkimSelectorFailure[] | null;
}

export interface BlacklistResult {
  ip: string;
  /** listed on at least one list */
  listed: boolean;
  /** names of the lists that list it */
  listedOn: string[];
  /** the MX hosts (or, with no MX record, the domain) that have this address */
  hosts: string[];
  /** lists that gave no usable answer for it (time-out, SERVFAIL, a list error code), with the reason */
  failedLists: string[];
}

export interface BlacklistSkip {
  /** an address, or an MX host whose addresses could not be resolved */
  target: string;
  reason: string;
}

export interface BlacklistDetails {
  /** distinct IPv4 addresses asked about */
  checkedIps: number | null;
  /** addresses listed on at least one list */
  listedIps: number | null;
  /** addresses on no list (among the lists that answered: see `failedLists`) */
  cleanIps: number | null;
  results: BlacklistResult[] | null;
  /** the number of lists asked for each address (dnsbl.zones) */
  listCount: number | null;
  /** addresses not asked about (IPv6, special-purpose) and MX hosts that could not be resolved */
  skipped: BlacklistSkip[] | null;
  /** MX hosts beyond the best MX_MAX_EXCHANGES: their addresses were not asked about */
  omittedExchanges: number | null;
  /** addresses beyond the first MX_MAX_ADDRESSES_PER_EXCHANGE of a host, not asked about */
  omittedAddresses: number | null;
}

/*
 * The parts that are single checks (./parts.ts) hold their check's data under the check's name (GraphQL: one
 * selection over the union may not ask for a name that two members type differently), or a PartNotTested
 * when the part or the host could not be tested. REST answers that data as the details themselves
 * (`@flatten` in the REST document).
 */

/** Why a transport part has no single check's data. */
export type NotTestedReason =
  /** the domain takes no mail (RFC 7505): there is no mail server to test */
  | 'null-mx'
  /** the domain has no MX host (no MX records, or none that could be followed) */
  | 'no-mx-hosts'
  /** an MX host beyond the first MAIL_TRANSPORT_MAX_HOSTS by priority */
  | 'beyond-host-limit'
  /** smtp.enabled false: this instance opens no SMTP session */
  | 'smtp-probes-off'
  /** the host was refused by the target rules, or its address could not be had (the check's `error`) */
  | 'host-not-testable'
  /** the part itself could not run (the check's `error`) */
  | 'could-not-run';

/**
 * A transport part's details when it has no single check's data: an object all the same (docs/contract/api-v1.md
 * "Result objects (`data`) by endpoint": `details` is an object), saying which MX hosts went untested and why.
 */
export interface PartNotTested {
  tested: false;
  reason: NotTestedReason;
  /** the MX hosts not tested: [] when the domain has none and for the parts about the domain; else the check's host */
  untestedHosts: string[];
}

export function partNotTested(reason: NotTestedReason, hosts: readonly string[] = []): PartNotTested {
  return { tested: false, reason, untestedHosts: [...hosts] };
}

export function isPartNotTested(details: unknown): details is PartNotTested {
  return typeof details === 'object' && details !== null && (details as Partial<PartNotTested>).tested === false;
}

export interface MailDetailsById {
  mx: MxDetails;
  spf: SpfDetails;
  dmarc: DmarcDetails;
  dkim: DkimDetails;
  blacklist: BlacklistDetails;
}

/** The details of a check that could not run: the same keys, nothing found. */
export function mailDetailsNotMeasured<K extends MailCheckId>(id: K): MailDetailsById[K] {
  const empty: MailDetailsById = {
    mx: { hosts: null, total: null, omittedExchanges: null, nullMx: null, rcode: null },
    spf: {
      record: null,
      recordCount: null,
      mechanismCount: null,
      evaluation: null,
      lookupCount: null,
      lookupLimit: null,
    },
    dmarc: { record: null, policy: null, found: null, inherited: null, queriedName: null },
    dkim: { selectorsFound: null, selectorsChecked: null, providers: null, failedSelectors: null },
    blacklist: {
      checkedIps: null,
      listedIps: null,
      cleanIps: null,
      results: null,
      listCount: null,
      skipped: null,
      omittedExchanges: null,
      omittedAddresses: null,
    },
  };
  return empty[id];
}
