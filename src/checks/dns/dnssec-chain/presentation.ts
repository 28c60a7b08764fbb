/** Records in presentation format (RFC 1035 §5.1, RFC 4034 §§2.2, 3.2, 4.2, 5.3, RFC 5155 §3.3) for the answer's `records`. */
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

export function presentRecord(record: DnsRecord): string {
  return `${fqdn(record.name)} ${record.ttl} IN ${record.type} ${presentData(record)}`;
}

function presentData(record: DnsRecord): string {
  const data = record.data;
  if (typeof data === 'object' && 'rdataHex' in data) {
    const hex = (data as OpaqueData).rdataHex;
    return `\\# ${hex.length / 2} ${hex}`;
  }
  switch (record.type) {
    case 'A':
    case 'AAAA':
      return String(data);
    case 'NS':
    case 'CNAME':
    case 'PTR':
    case 'DNAME':
      return fqdn(String(data));
    case 'TXT':
      return `"${String(data).replace(/["\\]/g, '\\$&')}"`;
    case 'MX': {
      const mx = data as MxData;
      return `${mx.preference} ${fqdn(mx.exchange)}`;
    }
    case 'SOA': {
      const s = data as SoaData;
      return `${fqdn(s.mname)} ${fqdn(s.rname)} ${s.serial} ${s.refresh} ${s.retry} ${s.expire} ${s.minimum}`;
    }
    case 'SRV': {
      const s = data as SrvData;
      return `${s.priority} ${s.weight} ${s.port} ${fqdn(s.target)}`;
    }
    case 'DS': {
      const d = data as DsData;
      return `${d.keyTag} ${d.algorithm} ${d.digestType} ${d.digest}`;
    }
    case 'DNSKEY': {
      const k = data as DnskeyData;
      return `${k.flags} ${k.protocol} ${k.algorithm} ${k.publicKey}`;
    }
    case 'RRSIG': {
      const s = data as RrsigData;
      return `${s.typeCovered} ${s.algorithm} ${s.labels} ${s.originalTtl} ${s.expiration} ${s.inception} ${s.keyTag} ${fqdn(s.signerName)} ${s.signature}`;
    }
    case 'NSEC': {
      const n = data as NsecData;
      return `${fqdn(n.nextDomain)} ${n.types.join(' ')}`.trim();
    }
    case 'NSEC3': {
      const n = data as Nsec3Data;
      return `${n.hashAlgorithm} ${n.flags} ${n.iterations} ${n.salt === '' ? '-' : n.salt} ${n.nextHashedOwner} ${n.types.join(' ')}`.trim();
    }
    case 'TLSA': {
      const t = data as TlsaData;
      return `${t.usage} ${t.selector} ${t.matchingType} ${t.data}`;
    }
    case 'CAA': {
      const c = data as CaaData;
      return `${c.flags} ${c.tag} "${c.value}"`;
    }
    default:
      return JSON.stringify(data);
  }
}

function fqdn(name: string): string {
  return name === '.' || name.endsWith('.') ? name : `${name}.`;
}
