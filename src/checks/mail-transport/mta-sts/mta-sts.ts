/**
 * mta-sts: SMTP MTA Strict Transport Security (RFC 8461). Pure: the TXT record at `_mta-sts.<domain>`,
 * the policy file's text and the domain's MX hosts in, the verdict out (mail-transport.md).
 *
 * RFC 8461 §3.1 record:  sts-text-record = sts-version 1*(sts-field-delim sts-field) [sts-field-delim]
 *                        sts-version = %s"v=STSv1"; sts-id = %s"id=" 1*32(ALPHA / DIGIT)
 * RFC 8461 §3.2 policy:  lines "key: value" ending in CRLF (LF accepted: many servers send it);
 *                        version STSv1, mode enforce|testing|none, max_age 0..31557600, mx (one or more
 *                        unless mode is none); unknown keys are ignored.
 * RFC 8461 §4.1 MX matching: case-insensitive, a trailing dot ignored; "*.example.com" matches exactly
 * one more left-most label ("mx.example.com", not "a.mx.example.com" nor "example.com").
 */
import { canonicalName } from '../../../net/dns-name.js';

export type MtaStsMode = 'enforce' | 'testing' | 'none';
export type MtaStsStatus = MtaStsMode | 'not-configured' | 'invalid';

export interface MtaStsPolicy {
  version: string;
  mode: MtaStsMode;
  /** the mx patterns as written */
  mx: string[];
  /** seconds */
  maxAge: number;
}

export interface MtaStsFetch {
  /** the HTTP status of the policy's response; null when none came (or nothing was fetched) */
  status: number | null;
  /** why the policy could not be used as fetched; null when it could */
  error: string | null;
}

export interface MxMatch {
  exchange: string;
  matches: boolean;
}

export interface MtaStsResult {
  domain: string;
  /** a TXT record beginning with v=STSv1 exists at _mta-sts.<domain> */
  found: boolean;
  /** the record that applies; "" when none (no record, or several) */
  record: string;
  /** the record's id=; "" when none */
  id: string;
  policyUrl: string;
  policy: MtaStsPolicy | null;
  fetch: MtaStsFetch;
  /** the MX hosts followed (the best MX_MAX_EXCHANGES, by priority) against the policy */
  mxMatches: MxMatch[];
  /** MX hosts beyond those, not matched against the policy */
  omittedExchanges: number;
  status: MtaStsStatus;
  errors: string[];
  warnings: string[];
}

/** RFC 8461 §3.2: max_age at most 31557600 s (about one year). */
export const MAX_AGE_LIMIT = 31_557_600;
/** RFC 8461 §3.2 recommends max_age "in the range of weeks or greater". */
export const MAX_AGE_RECOMMENDED = 604_800;
/** mail-transport.md: the policy is read up to 64 KiB. */
export const POLICY_MAX_BYTES = 64 * 1024;

export function mtaStsName(domain: string): string {
  return `_mta-sts.${domain}`;
}

export function policyHost(domain: string): string {
  return `mta-sts.${domain}`;
}

/** RFC 8461 §3.3: the policy's well-known URL. */
export function policyUrl(domain: string): string {
  return `https://${policyHost(domain)}/.well-known/mta-sts.txt`;
}

/** Records that do not begin with the version are not MTA-STS records (RFC 8461 §3.1). */
export function isMtaStsRecord(text: string): boolean {
  return /^v=STSv1\s*(;|$)/.test(text);
}

/** The record's id=, or the problems that make it unusable. */
export function parseMtaStsRecord(text: string): { id: string; errors: string[] } {
  const errors: string[] = [];
  let id: string | null = null;
  for (const field of text
    .split(';')
    .slice(1)
    .map((f) => f.trim())) {
    if (field === '') continue;
    const eq = field.indexOf('=');
    const name = eq < 0 ? field : field.slice(0, eq).trim();
    const value = eq < 0 ? '' : field.slice(eq + 1).trim();
    if (name !== 'id') continue;
    if (id !== null) errors.push('id= appears more than once in the record');
    else if (!/^[A-Za-z0-9]{1,32}$/.test(value))
      errors.push(`id "${value}" must be 1 to 32 letters and digits (RFC 8461 §3.1)`);
    id ??= value;
  }
  if (id === null) errors.push('the record has no id= (RFC 8461 §3.1)');
  return { id: id ?? '', errors };
}

const MODES: readonly MtaStsMode[] = ['enforce', 'testing', 'none'];

/** The policy file's text, read per RFC 8461 §3.2; null policy when a required field is missing or bad. */
export function parsePolicy(text: string): { policy: MtaStsPolicy | null; errors: string[]; warnings: string[] } {
  const errors: string[] = [];
  const warnings: string[] = [];
  const single = new Map<string, string>();
  const mx: string[] = [];
  for (const [n, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '') continue;
    const colon = line.indexOf(':');
    if (colon <= 0) {
      errors.push(`line ${n + 1} is not "key: value": "${line.slice(0, 80)}"`);
      continue;
    }
    const key = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    if (key === 'mx') mx.push(value);
    else if (key === 'version' || key === 'mode' || key === 'max_age') {
      if (single.has(key)) errors.push(`${key} appears more than once`);
      else single.set(key, value);
    }
  }
  const version = single.get('version');
  const mode = single.get('mode');
  const maxAgeText = single.get('max_age');
  if (version !== 'STSv1')
    errors.push(version === undefined ? 'the policy has no version' : `version "${version}" is not STSv1`);
  if (!MODES.includes(mode as MtaStsMode))
    errors.push(mode === undefined ? 'the policy has no mode' : `mode "${mode}" is not enforce, testing or none`);
  const maxAge = maxAgeText !== undefined && /^[0-9]{1,10}$/.test(maxAgeText) ? Number(maxAgeText) : null;
  if (maxAge === null || maxAge > MAX_AGE_LIMIT)
    errors.push(
      maxAgeText === undefined
        ? 'the policy has no max_age'
        : `max_age "${maxAgeText}" must be a number of seconds up to ${MAX_AGE_LIMIT}`,
    );
  if (mode !== 'none' && mx.length === 0)
    errors.push('the policy names no mx (RFC 8461 §3.2: required unless mode is none)');
  for (const pattern of mx)
    if (!/^(\*\.)?[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*\.?$/.test(pattern))
      errors.push(`mx "${pattern}" is not a host name or a "*." pattern`);
  if (maxAge !== null && maxAge <= MAX_AGE_LIMIT && maxAge < MAX_AGE_RECOMMENDED)
    warnings.push(`max_age ${maxAge} is under a week; RFC 8461 §3.2 recommends weeks or more`);
  const complete = errors.length === 0;
  return {
    policy: complete ? { version: 'STSv1', mode: mode as MtaStsMode, mx, maxAge: maxAge! } : null,
    errors,
    warnings,
  };
}

/** RFC 8461 §4.1: one MX host against one policy pattern. */
export function mxPatternMatches(pattern: string, exchange: string): boolean {
  const p = canonicalName(pattern);
  const host = canonicalName(exchange);
  if (!p.startsWith('*.')) return p === host;
  const dot = host.indexOf('.');
  return dot > 0 && host.slice(dot + 1) === p.slice(2);
}

export function mxMatchesOf(policy: MtaStsPolicy | null, exchanges: readonly string[]): MxMatch[] {
  return exchanges.map((exchange) => ({
    exchange,
    matches: policy !== null && policy.mx.some((p) => mxPatternMatches(p, exchange)),
  }));
}

export interface MtaStsEvidence {
  domain: string;
  /** every TXT record at _mta-sts.<domain> */
  records: readonly string[];
  /** the policy's text as fetched, or why it could not be had; null when not fetched */
  policyFetch: { status: number | null; text: string | null; error: string | null } | null;
  /** the domain's MX hosts followed, by priority (a null MX is none) */
  exchanges: readonly string[];
  /** MX hosts beyond those */
  omittedExchanges: number;
}

export function mtaStsVerdict(evidence: MtaStsEvidence): MtaStsResult {
  const { domain } = evidence;
  const sts = evidence.records.filter(isMtaStsRecord);
  const errors: string[] = [];
  const warnings: string[] = [];
  const base = {
    domain,
    found: sts.length > 0,
    record: sts.length === 1 ? sts[0]! : '',
    id: '',
    policyUrl: policyUrl(domain),
    policy: null as MtaStsPolicy | null,
    fetch: {
      status: evidence.policyFetch?.status ?? null,
      error: evidence.policyFetch?.error ?? null,
    },
    mxMatches: [] as MxMatch[],
    omittedExchanges: evidence.omittedExchanges,
  };
  const result = (status: MtaStsStatus): MtaStsResult => ({ ...base, status, errors, warnings });
  if (sts.length === 0) return result('not-configured');
  if (sts.length > 1) {
    errors.push(`${sts.length} MTA-STS records at ${mtaStsName(domain)}: senders use none (RFC 8461 §3.1)`);
    return result('invalid');
  }
  const record = parseMtaStsRecord(sts[0]!);
  base.id = record.id;
  errors.push(...record.errors);
  const fetched = evidence.policyFetch;
  if (fetched === null || fetched.text === null) {
    errors.push(`the policy could not be fetched: ${fetched?.error ?? 'not fetched'}`);
    return result('invalid');
  }
  const parsed = parsePolicy(fetched.text);
  errors.push(...parsed.errors);
  warnings.push(...parsed.warnings);
  base.policy = parsed.policy;
  if (parsed.policy === null || errors.length > 0) return result('invalid');
  base.mxMatches = mxMatchesOf(parsed.policy, evidence.exchanges);
  const unmatched = base.mxMatches.filter((m) => !m.matches).map((m) => m.exchange);
  if (unmatched.length > 0 && parsed.policy.mode !== 'none') {
    const text = `MX host${unmatched.length > 1 ? 's' : ''} ${unmatched.join(', ')} not matched by the policy's mx patterns (RFC 8461 §4.1)`;
    if (parsed.policy.mode === 'enforce') {
      errors.push(`${text}: senders will not deliver to ${unmatched.length > 1 ? 'them' : 'it'}`);
      return result('invalid');
    }
    warnings.push(text);
  }
  return result(parsed.policy.mode);
}
