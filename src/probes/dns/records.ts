/**
 * Turns the records dns-packet decoded into the probe's plain-JSON DnsRecord shapes (types.ts).
 */
import dnsPacket from 'dns-packet';
import type { Answer, CaaData, DnskeyData, DsData, Nsec3Data, NsecData, RrsigData, SoaData, SrvData } from 'dns-packet';
import { base32hexEncode } from './base32hex.js';
import type { DnsData, DnsRecord } from './types.js';

/** dns-packet's per-type codec, which its type declarations do not list. */
interface RdataCodec {
  encode(data: unknown): Buffer;
}
const recordCodec = (dnsPacket as unknown as { record(type: string): RdataCodec }).record;

/** Answer and authority records, without the OPT pseudo-record (which only appears in additionals). */
export function toDnsRecords(answers: readonly Answer[] | undefined): DnsRecord[] {
  const records: DnsRecord[] = [];
  for (const a of answers ?? []) {
    if (a.type === 'OPT') continue;
    const record = { name: a.name, type: a.type, ttl: a.ttl ?? 0, data: toDnsData(a.type, a.data) };
    records.push(a.type === 'TXT' ? { ...record, characterStrings: characterStrings(a.data) } : record);
  }
  return records;
}

function toDnsData(type: string, data: unknown): DnsData {
  switch (type) {
    case 'A':
    case 'AAAA':
    case 'CNAME':
    case 'DNAME':
    case 'NS':
    case 'PTR':
      return String(data);
    case 'TXT':
      return joinCharacterStrings(data);
    case 'MX': {
      const d = data as { preference?: number; exchange: string };
      return { preference: d.preference ?? 0, exchange: d.exchange };
    }
    case 'SOA': {
      const d = data as Required<SoaData>;
      return {
        mname: d.mname,
        rname: d.rname,
        serial: d.serial,
        refresh: d.refresh,
        retry: d.retry,
        expire: d.expire,
        minimum: d.minimum,
      };
    }
    case 'DNSKEY': {
      const d = data as DnskeyData;
      return {
        flags: d.flags,
        // dns-packet refuses to decode any other protocol value (RFC 4034 §2.1.2)
        protocol: 3,
        algorithm: d.algorithm,
        publicKey: d.key.toString('base64'),
        keyTag: dnskeyTag(d.flags, 3, d.algorithm, d.key),
        zoneKey: (d.flags & 0x0100) !== 0,
        secureEntryPoint: (d.flags & 0x0001) !== 0,
      };
    }
    case 'DS': {
      const d = data as DsData;
      return {
        keyTag: d.keyTag,
        algorithm: d.algorithm,
        digestType: d.digestType,
        digest: d.digest.toString('hex').toUpperCase(),
      };
    }
    case 'RRSIG': {
      const d = data as RrsigData;
      return {
        typeCovered: d.typeCovered,
        algorithm: d.algorithm,
        labels: d.labels,
        originalTtl: d.originalTTL,
        expiration: d.expiration,
        inception: d.inception,
        keyTag: d.keyTag,
        signerName: d.signersName,
        signature: d.signature.toString('base64'),
      };
    }
    case 'CAA': {
      const d = data as Required<CaaData>;
      return { flags: d.flags, critical: (d.flags & 0x80) !== 0, tag: d.tag, value: d.value };
    }
    case 'SRV': {
      const d = data as SrvData;
      return { priority: d.priority ?? 0, weight: d.weight ?? 0, port: d.port, target: d.target };
    }
    case 'TLSA': {
      const d = data as { usage: number; selector: number; matchingType: number; certificate: Buffer };
      return {
        usage: d.usage,
        selector: d.selector,
        matchingType: d.matchingType,
        data: d.certificate.toString('hex'),
      };
    }
    case 'NSEC': {
      const d = data as NsecData;
      return { nextDomain: d.nextDomain, types: [...d.rrtypes] };
    }
    case 'NSEC3': {
      const d = data as Nsec3Data;
      return {
        hashAlgorithm: d.algorithm,
        flags: d.flags,
        iterations: d.iterations,
        salt: d.salt.toString('hex'),
        nextHashedOwner: base32hexEncode(d.nextDomain),
        types: [...d.rrtypes],
      };
    }
    default:
      // dns-packet decodes some further types into objects; encoding them again gives back the RDATA
      return { rdataHex: recordCodec(type).encode(data).subarray(2).toString('hex') };
  }
}

/** One TXT record's character-strings as they came, base64 (DnsRecord.characterStrings). */
function characterStrings(data: unknown): string[] {
  const parts = Array.isArray(data) ? data : [data];
  return parts.map((p: unknown) => (Buffer.isBuffer(p) ? p : Buffer.from(String(p))).toString('base64'));
}

/**
 * One TXT record's character-strings joined without separator (RFC 7208 §3.3, RFC 6376 §3.6.2.2),
 * joined as bytes before UTF-8 decoding so that a character split across two strings survives.
 */
function joinCharacterStrings(data: unknown): string {
  const parts = Array.isArray(data) ? data : [data];
  return Buffer.concat(parts.map((p: unknown) => (Buffer.isBuffer(p) ? p : Buffer.from(String(p))))).toString('utf8');
}

/** A DNSKEY's key tag (RFC 4034 Appendix B): how DS and RRSIG records point at it. */
export function dnskeyTag(flags: number, protocol: number, algorithm: number, key: Buffer): number {
  const rdata = Buffer.concat([Buffer.from([flags >> 8, flags & 0xff, protocol, algorithm]), key]);
  // RFC 4034 Appendix B.1: RSA/MD5 keys (algorithm 1) are tagged by the modulus's low-order bits instead
  if (algorithm === 1) return rdata.length >= 4 ? rdata.readUInt16BE(rdata.length - 3) : 0;
  let sum = 0;
  for (let i = 0; i < rdata.length; i++) sum += i & 1 ? rdata[i]! : rdata[i]! << 8;
  sum += (sum >> 16) & 0xffff;
  return sum & 0xffff;
}
