/**
 * DMARC policy records (RFC 7489): parsing and validation of one record (§6.3, §6.4), and policy
 * discovery with the organisational-domain fallback (§6.6.3), run against an injected TXT lookup.
 *
 * Discovery, as §6.6.3 orders it:
 * 1. ask `_dmarc.<domain>`; keep the records that start with `v=DMARC1`;
 * 2. none kept: ask `_dmarc.<org>` where <org> is the organisational domain (§3.2: the public
 *    suffix plus one label, from the Public Suffix List via tldts, private section included so
 *    that e.g. each github.io site is its own organisation), when it differs from <domain>;
 * 3. several records kept (at either step): discovery ends, no policy applies (`multiple: true`,
 *    `found: false`).
 * A failed question (time-out, SERVFAIL…) is thrown: the check could not run.
 */
import { getDomain } from 'tldts';
import { parseTagList, tagsObject, colonList } from '../shared/txt.js';
import type { TxtLookup } from '../shared/txt.js';
import { canonicalName } from '../../../net/dns-name.js';

export type DmarcPolicy = 'none' | 'quarantine' | 'reject';

export interface DmarcRecordAnalysis {
  /** tag → value, names lower-cased, first occurrence of a repeated tag */
  tags: Record<string, string>;
  /** p=, or null when missing or invalid */
  policy: DmarcPolicy | null;
  /** sp=, or null when absent or invalid (then p applies to subdomains) */
  subdomainPolicy: DmarcPolicy | null;
  /** pct=, default 100 */
  percentage: number;
  aggregateReportUris: string[];
  failureReportUris: string[];
  /** the record is usable by a receiver (§6.6.3 step 6 included) */
  valid: boolean;
  /** valid only through §6.6.3 step 6 (no valid p=/sp= but a valid rua=): receivers apply p=none */
  appliesAsNone: boolean;
  errors: string[];
  warnings: string[];
}

// RFC 7489 §6.4: "v" *WSP "=" *WSP "DMARC1" — the version value is case-sensitive (%x44 %x4d ...).
const DMARC_VERSION = /^[vV][ \t]*=[ \t]*DMARC1[ \t]*(?:;|$)/;
const LOOKS_LIKE_DMARC = /^\s*v\s*=\s*dmarc/i;

export function isDmarcRecord(txt: string): boolean {
  return DMARC_VERSION.test(txt);
}

const POLICIES: readonly string[] = ['none', 'quarantine', 'reject'];
const FAILURE_OPTIONS: readonly string[] = ['0', '1', 'd', 's'];
const KNOWN_TAGS: readonly string[] = ['v', 'p', 'sp', 'pct', 'adkim', 'aspf', 'fo', 'rf', 'ri', 'rua', 'ruf'];
const MAX_UINT32 = 4_294_967_295;

export function parseDmarcRecord(record: string): DmarcRecordAnalysis {
  const list = parseTagList(record, { foldNames: true });
  const tags = tagsObject(list);
  const errors = [...list.errors];
  const warnings: string[] = [];
  const has = (name: string): boolean => Object.hasOwn(tags, name);

  if (list.tags[0]?.name !== 'v' || tags.v !== 'DMARC1')
    errors.push('the record must start with v=DMARC1 (RFC 7489 §6.4)');

  const policy = policyValue(tags.p);
  if (!has('p')) errors.push('the required p= tag is missing (RFC 7489 §6.3)');
  else if (policy === null) errors.push(`p=${tags.p} is not one of none, quarantine, reject`);

  const subdomainPolicy = policyValue(tags.sp);
  if (has('sp') && subdomainPolicy === null) errors.push(`sp=${tags.sp} is not one of none, quarantine, reject`);

  let percentage = 100;
  if (has('pct')) {
    const pct = tags.pct ?? '';
    if (/^\d{1,3}$/.test(pct) && Number(pct) <= 100) percentage = Number(pct);
    else errors.push(`pct=${pct} is not an integer from 0 to 100`);
  }

  for (const name of ['adkim', 'aspf'] as const) {
    if (has(name) && !/^[rs]$/i.test(tags[name] ?? ''))
      errors.push(`${name}=${tags[name]} is not r (relaxed) or s (strict)`);
  }

  if (has('fo')) {
    const bad = colonList(tags.fo ?? '').filter((o) => !FAILURE_OPTIONS.includes(o.toLowerCase()));
    if (bad.length > 0 || colonList(tags.fo ?? '').length === 0)
      errors.push(`fo=${tags.fo} must be a ":"-separated list of 0, 1, d, s`);
  }

  if (has('rf')) {
    const formats = colonList(tags.rf ?? '');
    if (formats.length === 0) errors.push('rf= is empty');
    const unknown = formats.filter((f) => f.toLowerCase() !== 'afrf');
    if (unknown.length > 0)
      warnings.push(`rf= names unregistered report formats: ${unknown.join(', ')} (only afrf is registered)`);
  }

  if (has('ri') && !(/^\d{1,10}$/.test(tags.ri ?? '') && Number(tags.ri) <= MAX_UINT32)) {
    errors.push(`ri=${tags.ri} is not a number of seconds (32-bit unsigned integer)`);
  }

  const aggregate = reportUris('rua', tags.rua, has('rua'));
  const failure = reportUris('ruf', tags.ruf, has('ruf'));
  errors.push(...aggregate.errors, ...failure.errors);
  warnings.push(...aggregate.warnings, ...failure.warnings);

  const unknownTags = list.tags.map((t) => t.name).filter((n) => !KNOWN_TAGS.includes(n));
  if (unknownTags.length > 0) warnings.push(`unknown tags are ignored: ${unknownTags.join(', ')}`);

  // §6.6.3 step 6: a record without a valid p= (or with an invalid sp=) still applies as p=none
  // when it names at least one valid aggregate report URI.
  const versionOk = list.tags[0]?.name === 'v' && tags.v === 'DMARC1';
  const policyOk = policy !== null && !(has('sp') && subdomainPolicy === null);
  const rescuedByRua = !policyOk && aggregate.uris.length > 0;
  if (rescuedByRua)
    warnings.push(
      'without a valid policy, receivers treat this record as p=none because it has a valid rua= (RFC 7489 §6.6.3)',
    );
  const valid = versionOk && list.duplicates.length === 0 && (policyOk || rescuedByRua);

  if (policy === 'none') warnings.push('p=none only monitors: failing mail is still delivered');
  if (has('pct') && percentage < 100 && policy !== 'none')
    warnings.push(`pct=${percentage}: the policy applies to ${percentage}% of failing mail`);
  if (!has('rua')) warnings.push('no rua=: no aggregate reports are requested');

  return {
    tags,
    policy,
    subdomainPolicy,
    percentage,
    aggregateReportUris: aggregate.uris,
    failureReportUris: failure.uris,
    valid,
    appliesAsNone: valid && rescuedByRua,
    errors,
    warnings,
  };
}

function policyValue(value: string | undefined): DmarcPolicy | null {
  const folded = value?.toLowerCase();
  return folded !== undefined && POLICIES.includes(folded) ? (folded as DmarcPolicy) : null;
}

/**
 * RFC 7489 §6.2, §6.4: dmarc-uri = URI [ "!" 1*DIGIT [ "k" / "m" / "g" / "t" ] ], comma-separated.
 * Receivers must support mailto: only (§6.2), so other schemes get a warning.
 */
function reportUris(
  tag: string,
  value: string | undefined,
  present: boolean,
): { uris: string[]; errors: string[]; warnings: string[] } {
  const uris: string[] = [];
  const errors: string[] = [];
  const warnings: string[] = [];
  if (!present) return { uris, errors, warnings };
  const items = (value ?? '').split(',').map((s) => s.trim());
  if (items.every((s) => s === '')) return { uris, errors: [`${tag}= is empty`], warnings };
  for (const item of items) {
    const match = /^(.+?)(?:!\d+[kmgt]?)?$/i.exec(item);
    const uri = match?.[1] ?? '';
    if (!isUri(uri)) {
      errors.push(`${tag}= entry "${item}" is not a URI`);
      continue;
    }
    if (/^mailto:/i.test(uri)) {
      if (!isMailtoAddress(uri)) {
        errors.push(`${tag}= entry "${item}" is not a mailto: address`);
        continue;
      }
    } else {
      warnings.push(`${tag}= entry "${item}" is not mailto:; receivers only have to support mailto (RFC 7489 §6.2)`);
    }
    uris.push(uri);
  }
  return { uris, errors, warnings };
}

/** "mailto:local@domain.tld": one "@", a non-empty local part, a dotted domain (checked without a backtracking regex). */
function isMailtoAddress(uri: string): boolean {
  const address = uri.slice('mailto:'.length);
  const at = address.indexOf('@');
  if (at <= 0 || address.indexOf('@', at + 1) >= 0 || /\s/.test(address)) return false;
  const domain = address.slice(at + 1);
  const dot = domain.lastIndexOf('.');
  return dot > 0 && dot < domain.length - 1;
}

function isUri(text: string): boolean {
  if (!/^[a-z][a-z0-9+.-]*:\S+$/i.test(text)) return false;
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

/** dmarc-checker's result (api-v1.md) with added fields. */
export interface DmarcCheckResult {
  domain: string;
  found: boolean;
  /** the record that applies, "" when none */
  record: string;
  tags: Record<string, string>;
  /** the name whose record applies (or was last asked) */
  queriedName: string;
  /** the organisational domain (RFC 7489 §3.2), null when it cannot be determined */
  orgDomain: string | null;
  /** the record was found at the organisational domain, not at the domain itself */
  inherited: boolean;
  /** several DMARC records at one name: none applies (RFC 7489 §6.6.3) */
  multiple: boolean;
  policy: DmarcPolicy | null;
  /** the policy for mail from `domain`: sp (falling back to p) when inherited, p otherwise */
  effectivePolicy: DmarcPolicy | null;
  valid: boolean;
  errors: string[];
  warnings: string[];
}

export function dmarcRecordName(domain: string): string {
  return `_dmarc.${domain.replace(/\.$/, '')}`;
}

export function organizationalDomain(domain: string): string | null {
  return getDomain(domain.replace(/\.$/, ''), { allowPrivateDomains: true });
}

export async function checkDmarc(domain: string, lookup: TxtLookup): Promise<DmarcCheckResult> {
  const orgDomain = organizationalDomain(domain);
  const own = await dmarcRecordsAt(dmarcRecordName(domain), lookup);
  const nearMissWarnings = own.nearMisses.map(
    (r) => `"${clip(r)}" at ${dmarcRecordName(domain)} is not a DMARC record: it must start with v=DMARC1`,
  );

  let candidates = own;
  let queriedName = dmarcRecordName(domain);
  let inherited = false;
  if (own.records.length === 0 && orgDomain !== null && orgDomain !== normalise(domain)) {
    queriedName = dmarcRecordName(orgDomain);
    candidates = await dmarcRecordsAt(queriedName, lookup);
    inherited = true;
  }

  const base = { domain, queriedName, orgDomain, multiple: false };
  if (candidates.records.length !== 1) {
    const multiple = candidates.records.length > 1;
    return {
      ...base,
      found: false,
      record: '',
      tags: {},
      inherited: false,
      multiple,
      policy: null,
      effectivePolicy: null,
      valid: false,
      errors: multiple
        ? [`${queriedName} has ${candidates.records.length} DMARC records, so none applies (RFC 7489 §6.6.3)`]
        : [],
      warnings: nearMissWarnings,
    };
  }

  const record = candidates.records[0] ?? '';
  const analysis = parseDmarcRecord(record);
  const policyForDomain = inherited ? (analysis.subdomainPolicy ?? analysis.policy) : analysis.policy;
  const effectivePolicy = !analysis.valid ? null : analysis.appliesAsNone ? 'none' : policyForDomain;
  return {
    ...base,
    found: true,
    record,
    tags: analysis.tags,
    inherited,
    policy: analysis.policy,
    effectivePolicy,
    valid: analysis.valid,
    errors: analysis.errors,
    warnings: [...nearMissWarnings, ...analysis.warnings],
  };
}

async function dmarcRecordsAt(name: string, lookup: TxtLookup): Promise<{ records: string[]; nearMisses: string[] }> {
  const answer = await lookup(name);
  const txts = answer.rcode === 'NXDOMAIN' ? [] : answer.records;
  return {
    records: txts.filter(isDmarcRecord),
    nearMisses: txts.filter((t) => !isDmarcRecord(t) && LOOKS_LIKE_DMARC.test(t)),
  };
}

function normalise(domain: string): string {
  return canonicalName(domain);
}

function clip(s: string): string {
  return s.length > 60 ? `${s.slice(0, 60)}…` : s;
}
