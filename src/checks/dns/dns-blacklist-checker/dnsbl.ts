/**
 * DNS block lists (RFC 5782): the name to ask and the meaning of the answer.
 *
 * Classification of one list's answer (decisions §4: clean | listed | error):
 * - NXDOMAIN, or NOERROR without an A record: clean (RFC 5782 §2.1: a listing is an A record).
 * - A records, all in 127.0.0.0/8, none of them a list error code: listed; `codes` holds them.
 * - any record in 127.255.255.0/24: error. Spamhaus answers these instead of a listing when it
 *   refuses the query (.252 typing error in the list name, .254 query via a public or
 *   unattributable resolver, .255 excessive number of queries; the range is reserved for such
 *   errors and other lists follow the convention), so it says nothing about the address.
 * - 127.0.0.0 or 127.0.0.1: error. RFC 5782 §5 forbids 127.0.0.1 as a listed key, and lists use
 *   it as an answer to say "you may not query" or "this list lists everything" (a dead list).
 * - any record outside 127.0.0.0/8: error "unexpected answer" (a resolver rewriting NXDOMAIN, or
 *   a zone that is not a DNSBL).
 * - a failed question (time-out, SERVFAIL, refused, garbage): error, with the reason.
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { InputError } from '../../../errors.js';
import type { ProbeError } from '../../../probes/errors.js';

export interface DnsblZone {
  /** DNS zone of the list, e.g. "zen.spamhaus.org" */
  zone: string;
  /** display name, e.g. "Spamhaus ZEN" */
  name: string;
}

export type DnsblStatus = 'clean' | 'listed' | 'error';

export interface DnsblListResult {
  zone: string;
  /** the list's display name (api-v1.md `results[].name`) */
  name: string;
  /** the DNS name that was asked */
  query: string;
  status: DnsblStatus;
  /** every A record of the answer, in answer order */
  codes: string[];
  /** why: the list's TXT explanation, the meaning of a known code, or the error; null when clean */
  reason: string | null;
}

export type DnsblOutcome =
  | { kind: 'answer'; rcode: 'NOERROR' | 'NXDOMAIN'; addresses: readonly string[]; txt?: readonly string[] }
  | { kind: 'error'; error: ProbeError };

/**
 * The query name for `ip` in `zone` (RFC 5782 §2.1, §2.4): IPv4 octets reversed; IPv6 as 32
 * nibbles, least significant first. An IPv4-mapped IPv6 address is asked as its IPv4 address.
 */
export function dnsblQueryName(ip: string, zone: string): string {
  return `${reversedAddressLabels(ip)}.${zone.replace(/\.$/, '')}`;
}

export function reversedAddressLabels(ip: string): string {
  // node:net is strict (dotted quad only); ipaddr.js would also take legacy forms such as "1.2.3".
  if (isIP(ip) === 0) throw new InputError('host', `"${ip}" is not an IP address`);
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return [...address.toByteArray()].reverse().join('.');
  const nibbles: string[] = [];
  for (const byte of address.toByteArray()) nibbles.push((byte >> 4).toString(16), (byte & 0x0f).toString(16));
  return nibbles.reverse().join('.');
}

export function classifyDnsblOutcome(list: DnsblZone, query: string, outcome: DnsblOutcome): DnsblListResult {
  const result = (status: DnsblStatus, codes: string[], reason: string | null): DnsblListResult => ({
    zone: list.zone,
    name: list.name,
    query,
    status,
    codes,
    reason,
  });

  if (outcome.kind === 'error') return result('error', [], errorReason(outcome.error));
  const codes = [...outcome.addresses];
  if (outcome.rcode === 'NXDOMAIN' || codes.length === 0) return result('clean', [], null);

  const foreign = codes.find((c) => !isLoopbackV4(c));
  if (foreign !== undefined) {
    return result('error', codes, `unexpected answer ${foreign}: a DNSBL answers within 127.0.0.0/8 (RFC 5782 §2.1)`);
  }
  const listError = codes.find(isListErrorCode);
  if (listError !== undefined) return result('error', codes, listErrorReason(list.zone, listError));
  const notListing = codes.find((c) => c === '127.0.0.0' || c === '127.0.0.1');
  if (notListing !== undefined) {
    return result(
      'error',
      codes,
      `answer ${notListing} is not a listing: the list refuses the query or lists every address`,
    );
  }
  const txt = outcome.txt?.filter((t) => t.trim() !== '') ?? [];
  const meanings = codes.map((c) => knownMeaning(list.zone, c)).filter((m): m is string => m !== null);
  const reason =
    txt.length > 0
      ? txt.join(' ')
      : meanings.length > 0
        ? [...new Set(meanings)].join(', ')
        : `listed (${codes.join(', ')})`;
  return result('listed', codes, reason);
}

export function countListed(results: readonly DnsblListResult[]): number {
  return results.filter((r) => r.status === 'listed').length;
}

function isLoopbackV4(code: string): boolean {
  if (!ipaddr.IPv4.isValidFourPartDecimal(code)) return false;
  return ipaddr.IPv4.parse(code).match(ipaddr.IPv4.parseCIDR('127.0.0.0/8'));
}

function isListErrorCode(code: string): boolean {
  return code.startsWith('127.255.255.');
}

function isSpamhaus(zone: string): boolean {
  return /(^|\.)spamhaus\.(org|net)\.?$/i.test(zone);
}

const SPAMHAUS_ERRORS: Record<string, string> = {
  '127.255.255.252': 'the list name was mistyped',
  '127.255.255.254': 'the query came through a public or unattributable resolver, which Spamhaus refuses',
  '127.255.255.255': 'too many queries from this resolver',
};

function listErrorReason(zone: string, code: string): string {
  const known = isSpamhaus(zone) ? SPAMHAUS_ERRORS[code] : undefined;
  return `list error code ${code}${known ? `: ${known}` : ''}; not a listing`;
}

// Return codes of zen.spamhaus.org (Spamhaus zone documentation), the default first list.
const SPAMHAUS_ZEN_CODES: Record<string, string> = {
  '127.0.0.2': 'SBL (spam source)',
  '127.0.0.3': 'SBL CSS (snowshoe spam)',
  '127.0.0.4': 'XBL (exploited host)',
  '127.0.0.9': 'DROP (hijacked network)',
  '127.0.0.10': 'PBL (end-user range, ISP-maintained)',
  '127.0.0.11': 'PBL (end-user range, Spamhaus-maintained)',
  '127.0.0.30': 'BCL (botnet controller)',
};

function knownMeaning(zone: string, code: string): string | null {
  return isSpamhaus(zone) ? (SPAMHAUS_ZEN_CODES[code] ?? null) : null;
}

function errorReason(error: ProbeError): string {
  switch (error.kind) {
    case 'TIMEOUT':
    case 'ABORTED':
      return `time-out: ${error.message}`;
    case 'SERVFAIL':
      return `SERVFAIL: ${error.message}`;
    case 'REFUSED':
      return `refused: ${error.message}`;
    default:
      return error.message;
  }
}
