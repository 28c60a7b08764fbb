/**
 * dane: TLSA records (RFC 6698) against the certificate chain a mail server presented, judged by the
 * rules for SMTP (RFC 7672). Pure: records, their DNSSEC state and the chain in, the verdict out.
 *
 * Matching (RFC 6698 §2.1): the selector picks the full certificate (0) or its SubjectPublicKeyInfo
 * (1); the matching type compares it exactly (0), by SHA-256 (1) or by SHA-512 (2). Usages 1 (PKIX-EE)
 * and 3 (DANE-EE) are about the server's own certificate, so they are matched against the leaf; usages
 * 0 (PKIX-TA) and 2 (DANE-TA) name a trust anchor, so they are matched against the issuers in the chain.
 *
 * For SMTP only DANE-TA(2) and DANE-EE(3) are usable (RFC 7672 §3.1.3): PKIX-TA/PKIX-EE records make
 * an MTA ignore them. status, the first that applies:
 *   no-tlsa    no TLSA record at _<port>._tcp.<host> (NXDOMAIN or NODATA): DANE is not in use
 *   error      the records do not validate (bogus), or the chain could not be obtained (`error` says why)
 *   insecure   records present, but not authenticated (AD): RFC 7672 §2.2 — they must be ignored
 *   unusable   secure, but no record is usable (only usages 0/1, or unknown selector/matching type)
 *   valid      secure, and at least one usable record matches the chain
 *   mismatch   secure usable records, none matching: a DANE-aware sender will not deliver (§2.2)
 */
import { createHash, X509Certificate } from 'node:crypto';
import type { TlsaData } from '../../../probes/dns/client.js';

export type DaneDnssec = 'secure' | 'insecure' | 'bogus';
export type DaneStatus = 'valid' | 'mismatch' | 'no-tlsa' | 'insecure' | 'unusable' | 'error';

export interface TlsaEntry {
  usage: number;
  selector: number;
  matchingType: number;
  /** hex, lower case */
  data: string;
  /** this record matches the presented chain */
  matches: boolean;
}

export interface DaneResult {
  host: string;
  port: number;
  /** the TLSA owner name asked */
  name: string;
  tlsa: TlsaEntry[];
  dnssec: DaneDnssec;
  status: DaneStatus;
  error: string | null;
}

/** RFC 6698 §3: the TLSA owner name of a TCP service. */
export function tlsaName(host: string, port: number): string {
  return `_${port}._tcp.${host}`;
}

/** RFC 7672 §3.1.3: DANE-TA(2) and DANE-EE(3) with a known selector and matching type. */
export function isUsableForSmtp(record: Pick<TlsaData, 'usage' | 'selector' | 'matchingType'>): boolean {
  return (record.usage === 2 || record.usage === 3) && record.selector <= 1 && record.matchingType <= 2;
}

/** The bytes a record's selector picks from one certificate (DER). */
function selected(der: Buffer, selector: number): Buffer | null {
  if (selector === 0) return der;
  if (selector === 1) return new X509Certificate(der).publicKey.export({ type: 'spki', format: 'der' });
  return null;
}

function associationData(bytes: Buffer, matchingType: number): string | null {
  if (matchingType === 0) return bytes.toString('hex');
  if (matchingType === 1) return createHash('sha256').update(bytes).digest('hex');
  if (matchingType === 2) return createHash('sha512').update(bytes).digest('hex');
  return null;
}

/** Whether one record matches the chain (DER, leaf first). */
export function tlsaMatches(record: TlsaData, chain: readonly Buffer[]): boolean {
  const candidates = record.usage === 1 || record.usage === 3 ? chain.slice(0, 1) : chain.slice(1);
  const wanted = record.data.toLowerCase();
  return candidates.some((der) => {
    const bytes = selected(der, record.selector);
    return bytes !== null && associationData(bytes, record.matchingType) === wanted;
  });
}

export interface DaneEvidence {
  host: string;
  port: number;
  /** the TLSA records found (none: no-tlsa) */
  records: readonly TlsaData[];
  dnssec: DaneDnssec;
  /** the presented chain, DER, leaf first; null when not obtained */
  chain: readonly Buffer[] | null;
  /** why there is no chain (no STARTTLS, handshake failed, unreachable); null when there is one */
  chainError: string | null;
}

export function daneVerdict(evidence: DaneEvidence): DaneResult {
  const { host, port, records, dnssec, chain } = evidence;
  const tlsa: TlsaEntry[] = records.map((r) => ({
    usage: r.usage,
    selector: r.selector,
    matchingType: r.matchingType,
    data: r.data.toLowerCase(),
    matches: chain !== null && tlsaMatches(r, chain),
  }));
  const result = (status: DaneStatus, error: string | null = null): DaneResult => ({
    host,
    port,
    name: tlsaName(host, port),
    tlsa,
    dnssec,
    status,
    error,
  });
  if (dnssec === 'bogus')
    return result('error', `the TLSA records of ${tlsaName(host, port)} do not validate (DNSSEC bogus)`);
  if (records.length === 0) return result('no-tlsa');
  if (dnssec === 'insecure') return result('insecure', evidence.chainError);
  const usable = tlsa.filter(isUsableForSmtp);
  if (usable.length === 0) return result('unusable', evidence.chainError);
  if (chain === null)
    return result('error', `no certificate chain to match: ${evidence.chainError ?? 'no TLS session with the server'}`);
  return usable.some((r) => r.matches) ? result('valid') : result('mismatch');
}
