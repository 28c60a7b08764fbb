/**
 * bimi: Brand Indicators for Message Identification (draft-brand-indicators-for-message-identification),
 * mail-transport.md. Pure: the record, the logo as fetched and the DMARC result in, the verdict out.
 *
 * The record at `<selector>._bimi.<domain>` (falling back to the organisational domain's, draft §4.3)
 * is a tag list beginning with v=BIMI1; l= is the logo's https: URL, a= the evidence document's (a Verified
 * Mark Certificate). Empty l= and a= decline BIMI. A logo shows only when DMARC is enforced: policy
 * quarantine or reject with pct=100 (draft §4.1 "DMARC policy enforcement").
 */
import type { DmarcCheckResult } from '../../mail/dmarc-checker/dmarc.js';
import { checkSvgTinyPs } from './bimi-svg.js';
import { parseTagList, tagsObject } from '../../mail/shared/txt.js';

export type BimiStatus = 'valid' | 'invalid' | 'not-configured';

/** The draft's size limit for the SVG logo. */
export const SVG_MAX_BYTES = 32 * 1024;

export interface BimiSvg {
  /** the HTTP status */
  status: number;
  contentType: string;
  bytes: number;
  tinyPs: boolean;
  errors: string[];
}

export interface BimiResult {
  domain: string;
  selector: string;
  /** a v=BIMI1 record applies (at the domain, or at its organisational domain) */
  found: boolean;
  /** the record that applies; "" when none */
  record: string;
  /** the name whose record applies, or was asked last */
  queriedName: string;
  /** l=, "" when none */
  location: string;
  /** a=, "" when none */
  authority: string;
  /** null when no logo was fetched */
  svg: BimiSvg | null;
  dmarcEligible: boolean;
  status: BimiStatus;
  errors: string[];
}

export function bimiName(selector: string, domain: string): string {
  return `${selector}._bimi.${domain}`;
}

export function isBimiRecord(text: string): boolean {
  return /^v\s*=\s*BIMI1\s*(;|$)/i.test(text);
}

/** The record's l= and a=, or what is wrong with it. */
export function parseBimiRecord(text: string): { location: string; authority: string; errors: string[] } {
  const list = parseTagList(text, { foldNames: true });
  const tags = tagsObject(list);
  const errors = [...list.errors];
  const location = tags.l ?? '';
  const authority = tags.a ?? '';
  for (const [name, value] of [
    ['l', location],
    ['a', authority],
  ] as const) {
    if (value === '') continue;
    let url: URL | null = null;
    try {
      url = new URL(value);
    } catch {
      url = null;
    }
    if (url === null || url.protocol !== 'https:')
      errors.push(`${name}=${value.slice(0, 80)} is not an https: URL (the draft requires HTTPS)`);
  }
  if (!('l' in tags)) errors.push('the record has no l= tag');
  return { location, authority, errors };
}

/** DMARC enforcement as BIMI needs it: quarantine or reject, for all mail (pct 100). */
export function dmarcEligibility(dmarc: DmarcCheckResult): { eligible: boolean; reason: string | null } {
  const policy = dmarc.effectivePolicy;
  const pct = Number(dmarc.tags.pct ?? '100');
  if (!dmarc.found)
    return { eligible: false, reason: 'the domain has no DMARC record; BIMI needs p=quarantine or p=reject' };
  if (policy !== 'quarantine' && policy !== 'reject')
    return { eligible: false, reason: `the DMARC policy is ${policy ?? 'not valid'}; BIMI needs quarantine or reject` };
  if (pct !== 100) return { eligible: false, reason: `DMARC pct=${pct}; BIMI needs the policy on all mail (pct=100)` };
  return { eligible: true, reason: null };
}

export interface LogoFetch {
  status: number;
  contentType: string;
  body: Buffer;
  /** the body was cut at SVG_MAX_BYTES */
  truncated: boolean;
  /** the certificate problem of the logo's host; null when valid */
  tlsError: string | null;
}

/** The logo as fetched, judged: status 200, image/svg+xml, within the size limit, the Tiny PS profile. */
export function judgeLogo(fetched: LogoFetch): BimiSvg {
  const errors: string[] = [];
  if (fetched.status !== 200) errors.push(`the logo URL answered ${fetched.status}`);
  if (fetched.tlsError !== null) errors.push(`the certificate of the logo's host is not valid (${fetched.tlsError})`);
  const type = fetched.contentType.split(';')[0]!.trim().toLowerCase();
  if (fetched.status === 200 && type !== 'image/svg+xml')
    errors.push(`the logo is served as ${type || 'no media type'}, not image/svg+xml`);
  if (fetched.truncated) errors.push(`the logo is larger than ${SVG_MAX_BYTES / 1024} KiB`);
  const profile =
    fetched.status === 200 && !fetched.truncated
      ? checkSvgTinyPs(fetched.body.toString('utf8'))
      : { tinyPs: false, errors: [] };
  errors.push(...profile.errors);
  return {
    status: fetched.status,
    contentType: fetched.contentType,
    bytes: fetched.body.length,
    tinyPs: profile.tinyPs,
    errors,
  };
}

export interface BimiEvidence {
  domain: string;
  selector: string;
  /** the v=BIMI1 records at the name asked last, and that name */
  records: readonly string[];
  queriedName: string;
  /** the logo as fetched; or why it could not be; null when nothing was fetched */
  logo: { fetched: LogoFetch } | { error: string } | null;
  dmarc: DmarcCheckResult;
}

export function bimiVerdict(evidence: BimiEvidence): BimiResult {
  const { domain, selector, records, queriedName } = evidence;
  const eligibility = dmarcEligibility(evidence.dmarc);
  const errors: string[] = [];
  const base = {
    domain,
    selector,
    found: records.length === 1,
    record: records.length === 1 ? records[0]! : '',
    queriedName,
    location: '',
    authority: '',
    svg: null as BimiSvg | null,
    dmarcEligible: eligibility.eligible,
  };
  const result = (status: BimiStatus): BimiResult => ({ ...base, status, errors });
  if (records.length === 0) return result('not-configured');
  if (records.length > 1) {
    errors.push(`${records.length} BIMI records at ${queriedName}: none applies`);
    return result('invalid');
  }
  const record = parseBimiRecord(records[0]!);
  base.location = record.location;
  base.authority = record.authority;
  // Empty l= and a=: the domain declines BIMI (draft §4.2)
  if (record.location === '' && record.authority === '' && record.errors.length === 0) return result('not-configured');
  errors.push(...record.errors);
  if (evidence.logo !== null) {
    if ('error' in evidence.logo) errors.push(`the logo could not be fetched: ${evidence.logo.error}`);
    else {
      base.svg = judgeLogo(evidence.logo.fetched);
      errors.push(...base.svg.errors);
    }
  }
  if (eligibility.reason !== null) errors.push(eligibility.reason);
  return result(errors.length === 0 ? 'valid' : 'invalid');
}
