/**
 * tls-rpt: SMTP TLS Reporting (RFC 8460). The TXT record at `_smtp._tls.<domain>` names where sending
 * MTAs report TLS negotiation failures with the domain's MX hosts (MTA-STS, DANE).
 *
 * RFC 8460 §3 grammar:
 *   tlsrpt-record    = tlsrpt-version 1*(field-delim tlsrpt-field) [field-delim]
 *   tlsrpt-version   = %s"v=TLSRPTv1"
 *   field-delim      = *WSP ";" *WSP
 *   tlsrpt-rua       = %s"rua=" tlsrpt-uri *(*WSP "," *WSP tlsrpt-uri)    ; mailto: or https:
 *   tlsrpt-extension = tlsrpt-ext-name "=" tlsrpt-ext-value
 * Records that do not begin with the version are not TLS-RPT records; several TLS-RPT records at the
 * name mean none applies (§3: "MUST NOT" send reports).
 */
import type { TxtLookup } from '../../mail/shared/txt.js';

export interface TlsRptCheckResult {
  domain: string;
  /** at least one record beginning with v=TLSRPTv1 exists at _smtp._tls.<domain> */
  found: boolean;
  /** the record that applies; "" when none (no record, or several) */
  record: string;
  /** several TLS-RPT records: none applies */
  multiple: boolean;
  /** the rua= URIs as written, in order */
  rua: string[];
  valid: boolean;
  errors: string[];
}

const VERSION = 'v=TLSRPTv1';
const EXTENSION_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$/;
// tlsrpt-ext-value: 1*(%x21-3A / %x3C / %x3E-7E), no "=", ";" or space
const EXTENSION_VALUE = /^[\x21-\x3a\x3c\x3e-\x7e]+$/;

export function tlsRptName(domain: string): string {
  return `_smtp._tls.${domain}`;
}

/** Whether a TXT record is a TLS-RPT record at all: it begins with the version (case-sensitive, §3). */
export function isTlsRptRecord(text: string): boolean {
  return text.startsWith(VERSION) && /^v=TLSRPTv1\s*(;|$)/.test(text);
}

/** One rua= URI: mailto: with an address, or an https: URL (RFC 8460 §3). */
function uriError(uri: string): string | null {
  const lower = uri.toLowerCase();
  if (lower.startsWith('mailto:')) {
    const address = uri.slice('mailto:'.length).split('?')[0] ?? '';
    return /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(decodeURIComponent(address))
      ? null
      : `rua URI "${uri}" is not a mailto: address (mailto:user@example.com)`;
  }
  if (lower.startsWith('https:')) {
    try {
      const url = new URL(uri);
      return url.hostname ? null : `rua URI "${uri}" has no host`;
    } catch {
      return `rua URI "${uri}" is not a valid https: URL`;
    }
  }
  return `rua URI "${uri}" must use mailto: or https: (RFC 8460 §3)`;
}

/** Parses one TLS-RPT record (which begins with the version); pure. */
export function parseTlsRpt(text: string): { rua: string[]; errors: string[] } {
  const errors: string[] = [];
  let rua: string[] | null = null;
  const fields = text.split(';').map((f) => f.trim());
  // fields[0] is the version; a trailing ";" leaves one empty field at the end
  for (const [i, field] of fields.slice(1).entries()) {
    if (field === '') {
      if (i !== fields.length - 2) errors.push('an empty field between two ";"');
      continue;
    }
    const eq = field.indexOf('=');
    const name = eq < 0 ? field : field.slice(0, eq);
    const value = eq < 0 ? '' : field.slice(eq + 1);
    if (name === 'rua') {
      if (rua !== null) {
        errors.push('rua= appears more than once');
        continue;
      }
      rua = value.split(',').map((u) => u.trim());
      if (rua.length === 0 || rua.some((u) => u === '')) errors.push('rua= has an empty URI');
      for (const uri of rua.filter((u) => u !== '')) {
        const error = uriError(uri);
        if (error) errors.push(error);
      }
      continue;
    }
    if (eq < 0 || !EXTENSION_NAME.test(name) || !EXTENSION_VALUE.test(value)) {
      errors.push(`"${field.slice(0, 80)}" is not a valid field (name=value, RFC 8460 §3)`);
    }
  }
  if (rua === null) errors.push('the record has no rua= field: reports cannot be sent anywhere');
  return { rua: (rua ?? []).filter((u) => u !== ''), errors };
}

/** The TLS-RPT policy of `domain`: NXDOMAIN and NODATA are "not found"; a failed question throws. */
export async function checkTlsRpt(domain: string, txt: TxtLookup): Promise<TlsRptCheckResult> {
  const answer = await txt(tlsRptName(domain));
  const records = answer.records.filter(isTlsRptRecord);
  const base = { domain, found: records.length > 0, multiple: records.length > 1 };
  if (records.length === 0) {
    // no record is a finding, not an error of a record (as dmarc-checker reports it)
    return { ...base, record: '', rua: [], valid: false, errors: [] };
  }
  if (records.length > 1) {
    return {
      ...base,
      record: '',
      rua: [],
      valid: false,
      errors: [`${records.length} TLS-RPT records at ${tlsRptName(domain)}: none applies (RFC 8460 §3)`],
    };
  }
  const record = records[0]!;
  const { rua, errors } = parseTlsRpt(record);
  return { ...base, record, rua, valid: errors.length === 0, errors };
}
