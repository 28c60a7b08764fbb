/**
 * Pure formatting of DNS answers: the `records` object of dns-lookup (api-v1.md) and the one-line
 * text form of a record that dns-propagation reports and compares.
 */
import type { DnsRecord, MxData, SoaData } from '../../../probes/dns/types.js';

/** The record types dns-lookup reports and dns-propagation accepts (api-v1.md, endpoint rule 5). */
export const LOOKUP_TYPES = ['A', 'AAAA', 'MX', 'TXT', 'CNAME', 'NS', 'SOA'] as const;
export type LookupType = (typeof LOOKUP_TYPES)[number];

export interface MxEntry {
  exchange: string;
  priority: number;
  type: 'MX';
}

/** SOA as api-v1.md names its fields. `hostmaster` is the RNAME as a DNS name (RFC 1035 §3.3.13), not an address. */
export interface SoaEntry {
  nsname: string;
  hostmaster: string;
  serial: number;
  refresh: number;
  retry: number;
  expire: number;
  minttl: number;
}

export interface LookupRecords {
  A: string[];
  AAAA: string[];
  MX: MxEntry[];
  TXT: string[];
  CNAME: string[];
  NS: string[];
  SOA: SoaEntry[];
}

export function isLookupType(type: string): type is LookupType {
  return (LOOKUP_TYPES as readonly string[]).includes(type);
}

/**
 * Sorts records into dns-lookup's `records` object. Records of other types are left out; a record
 * that appears in several answers (the CNAME of a name is in both its A and its AAAA answer) is
 * listed once. MX entries are ordered by priority, lowest first (RFC 5321 §5.1), ties keep their order.
 */
export function formatLookupRecords(records: readonly DnsRecord[]): LookupRecords {
  const out: LookupRecords = { A: [], AAAA: [], MX: [], TXT: [], CNAME: [], NS: [], SOA: [] };
  const seen = new Set<string>();
  for (const record of records) {
    if (!isLookupType(record.type)) continue;
    const key = `${record.type} ${record.name.toLowerCase()} ${recordText(record)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    switch (record.type) {
      case 'MX': {
        const mx = mxData(record);
        out.MX.push({ exchange: mx.exchange, priority: mx.preference, type: 'MX' });
        break;
      }
      case 'SOA': {
        const soa = soaData(record);
        out.SOA.push({
          nsname: soa.mname,
          hostmaster: soa.rname,
          serial: soa.serial,
          refresh: soa.refresh,
          retry: soa.retry,
          expire: soa.expire,
          minttl: soa.minimum,
        });
        break;
      }
      default:
        out[record.type].push(stringData(record));
    }
  }
  out.MX.sort((a, b) => a.priority - b.priority);
  return out;
}

/**
 * The presentation-like text of one record's data: addresses and names as they are, MX as
 * "10 mx.example.com", SOA as its seven fields in RFC 1035 order, TXT as the joined string.
 * Other types (never asked by the checks using this) are given as their JSON.
 */
export function recordText(record: DnsRecord): string {
  switch (record.type) {
    case 'A':
    case 'AAAA':
    case 'CNAME':
    case 'NS':
    case 'PTR':
    case 'TXT':
      return stringData(record);
    case 'MX': {
      const mx = mxData(record);
      return `${mx.preference} ${mx.exchange}`;
    }
    case 'SOA': {
      const s = soaData(record);
      return `${s.mname} ${s.rname} ${s.serial} ${s.refresh} ${s.retry} ${s.expire} ${s.minimum}`;
    }
    default:
      return JSON.stringify(record.data);
  }
}

/**
 * Text forms of the records of `type` in an answer. An answer to an A question for an alias also
 * carries the CNAME chain; dns-propagation compares the asked type only.
 */
export function recordTexts(type: string, records: readonly DnsRecord[]): string[] {
  return records.filter((r) => r.type === type).map(recordText);
}

// The DNS probe types `data` per record type; these guards turn a mismatch (a bug upstream of
// this module) into a clear error instead of "undefined" in a response.
function stringData(record: DnsRecord): string {
  if (typeof record.data !== 'string')
    throw new TypeError(`${record.type} record of ${record.name} has non-string data`);
  return record.data;
}

function mxData(record: DnsRecord): MxData {
  const d = record.data;
  if (typeof d === 'object' && 'exchange' in d && 'preference' in d) return d;
  throw new TypeError(`MX record of ${record.name} has malformed data`);
}

function soaData(record: DnsRecord): SoaData {
  const d = record.data;
  if (typeof d === 'object' && 'mname' in d && 'rname' in d && 'serial' in d) return d;
  throw new TypeError(`SOA record of ${record.name} has malformed data`);
}
