/**
 * The canonical RDATA of a record (RFC 4034 §6.2), rebuilt from the probe's plain-JSON record data:
 * names uncompressed, in lower case for the types RFC 4034 §6.2 item 3 lists as amended by
 * RFC 6840 §5.1 (which takes NSEC's Next Domain Name off the list), every other field as on the wire.
 */
import type {
  CaaData,
  DnskeyData,
  DnsRecord,
  DsData,
  MxData,
  Nsec3Data,
  NsecData,
  OpaqueData,
  RrsigData,
  SoaData,
  SrvData,
  TlsaData,
} from '../../../probes/dns/client.js';
import { base32hexDecode } from '../../../probes/dns/base32hex.js';
import { canonicalNameWire, nameWireAsWritten } from './names.js';
import { typeNumber } from './record-types.js';

/** The canonical RDATA, or null for a type this module cannot rebuild (its records are never verified). */
export function canonicalRdata(record: DnsRecord): Buffer | null {
  const data = record.data;
  if (typeof data === 'object' && 'rdataHex' in data) return Buffer.from((data as OpaqueData).rdataHex, 'hex');
  switch (record.type) {
    case 'A':
      return ipv4Bytes(String(data));
    case 'AAAA':
      return ipv6Bytes(String(data));
    case 'NS':
    case 'CNAME':
    case 'PTR':
    case 'DNAME':
      return canonicalNameWire(String(data));
    case 'TXT':
      return record.characterStrings ? stringsRdata(record.characterStrings) : txtRdata(String(data));
    case 'MX': {
      const mx = data as MxData;
      return Buffer.concat([u16(mx.preference), canonicalNameWire(mx.exchange)]);
    }
    case 'SOA': {
      const soa = data as SoaData;
      return Buffer.concat([
        canonicalNameWire(soa.mname),
        canonicalNameWire(soa.rname),
        u32(soa.serial),
        u32(soa.refresh),
        u32(soa.retry),
        u32(soa.expire),
        u32(soa.minimum),
      ]);
    }
    case 'SRV': {
      const srv = data as SrvData;
      return Buffer.concat([u16(srv.priority), u16(srv.weight), u16(srv.port), canonicalNameWire(srv.target)]);
    }
    case 'DS':
      return dsRdata(data as DsData);
    case 'DNSKEY':
      return dnskeyRdata(data as DnskeyData);
    case 'RRSIG':
      return Buffer.concat([
        rrsigRdataWithoutSignature(data as RrsigData),
        Buffer.from((data as RrsigData).signature, 'base64'),
      ]);
    case 'NSEC': {
      const nsec = data as NsecData;
      return Buffer.concat([nameWireAsWritten(nsec.nextDomain), typeBitmap(nsec.types)]);
    }
    case 'NSEC3': {
      const nsec3 = data as Nsec3Data;
      const salt = Buffer.from(nsec3.salt, 'hex');
      const next = base32hexDecode(nsec3.nextHashedOwner);
      return Buffer.concat([
        Buffer.from([nsec3.hashAlgorithm, nsec3.flags]),
        u16(nsec3.iterations),
        Buffer.from([salt.length]),
        salt,
        Buffer.from([next.length]),
        next,
        typeBitmap(nsec3.types),
      ]);
    }
    case 'TLSA': {
      const tlsa = data as TlsaData;
      return Buffer.concat([
        Buffer.from([tlsa.usage, tlsa.selector, tlsa.matchingType]),
        Buffer.from(tlsa.data, 'hex'),
      ]);
    }
    case 'CAA': {
      const caa = data as CaaData;
      const tag = Buffer.from(caa.tag, 'latin1');
      return Buffer.concat([Buffer.from([caa.flags, tag.length]), tag, Buffer.from(caa.value, 'utf8')]);
    }
    default:
      return null;
  }
}

/** RFC 4034 §2.1. */
export function dnskeyRdata(key: Pick<DnskeyData, 'flags' | 'protocol' | 'algorithm' | 'publicKey'>): Buffer {
  return Buffer.concat([
    u16(key.flags),
    Buffer.from([key.protocol, key.algorithm]),
    Buffer.from(key.publicKey, 'base64'),
  ]);
}

/** RFC 4034 §5.1. */
export function dsRdata(ds: DsData): Buffer {
  return Buffer.concat([u16(ds.keyTag), Buffer.from([ds.algorithm, ds.digestType]), Buffer.from(ds.digest, 'hex')]);
}

/** RFC 4034 §3.1.8.1: the RRSIG RDATA without its Signature field, the signer's name in canonical form. */
export function rrsigRdataWithoutSignature(sig: RrsigData): Buffer {
  const covered = typeNumber(sig.typeCovered) ?? 0;
  return Buffer.concat([
    u16(covered),
    Buffer.from([sig.algorithm, sig.labels]),
    u32(sig.originalTtl),
    u32(sig.expiration),
    u32(sig.inception),
    u16(sig.keyTag),
    canonicalNameWire(sig.signerName),
  ]);
}

/** RFC 1035 §3.3.14: each character-string as a length octet and its octets. */
function stringsRdata(strings: readonly string[]): Buffer {
  return Buffer.concat(
    strings.flatMap((text) => {
      const bytes = Buffer.from(text, 'base64');
      return [Buffer.from([bytes.length]), bytes];
    }),
  );
}

/**
 * A TXT record without its character-strings (one built by hand, not read off the wire): the text is
 * cut again at 255 octets, where zone tools split long texts.
 */
function txtRdata(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  const parts: Buffer[] = [];
  for (let at = 0; at < bytes.length || at === 0; at += 255) {
    const chunk = bytes.subarray(at, at + 255);
    parts.push(Buffer.from([chunk.length]), chunk);
    if (bytes.length === 0) break;
  }
  return Buffer.concat(parts);
}

/** RFC 4034 §4.1.2: window blocks of up to 32 octets, in increasing window order. */
export function typeBitmap(types: readonly string[]): Buffer {
  const windows = new Map<number, number[]>();
  for (const type of types) {
    const number = typeNumber(type);
    if (number === null) continue;
    const window = number >> 8;
    const bits = windows.get(window) ?? [];
    bits.push(number & 0xff);
    windows.set(window, bits);
  }
  const parts: Buffer[] = [];
  for (const window of [...windows.keys()].sort((a, b) => a - b)) {
    const bits = windows.get(window)!;
    const length = (Math.max(...bits) >> 3) + 1;
    const block = Buffer.alloc(length);
    for (const bit of bits) block[bit >> 3]! |= 0x80 >> (bit & 7);
    parts.push(Buffer.from([window, length]), block);
  }
  return Buffer.concat(parts);
}

function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n & 0xffff);
  return b;
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
}

function ipv4Bytes(text: string): Buffer {
  return Buffer.from(text.split('.').map((part) => Number(part) & 0xff));
}

/** An IPv6 text (RFC 4291 §2.2, "::" and a trailing dotted quad included) as its 16 octets. */
function ipv6Bytes(text: string): Buffer {
  let groups: string[];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  let tail: Buffer = Buffer.alloc(0);
  let head = text;
  if (dotted) {
    tail = ipv4Bytes(dotted[1]!);
    head = text.slice(0, -dotted[1]!.length);
    if (head.endsWith(':') && !head.endsWith('::')) head = head.slice(0, -1);
  }
  const groupCount = dotted ? 6 : 8;
  if (head.includes('::')) {
    const [left, right] = head.split('::') as [string, string];
    const l = left === '' ? [] : left.split(':');
    const r = right === '' ? [] : right.split(':');
    groups = [...l, ...Array(groupCount - l.length - r.length).fill('0'), ...r];
  } else {
    groups = head.split(':');
  }
  const out = Buffer.alloc(16);
  for (const [i, group] of groups.slice(0, groupCount).entries()) {
    out.writeUInt16BE(Number.parseInt(group || '0', 16) & 0xffff, i * 2);
  }
  tail.copy(out, 12);
  return out;
}
