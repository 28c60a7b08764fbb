/** Key tags (RFC 4034 Appendix B): how DS and RRSIG records point at a DNSKEY. */
import { dnskeyRdata } from './rdata.js';
import type { DnskeyData } from '../../../probes/dns/client.js';

export function keyTag(key: Pick<DnskeyData, 'flags' | 'protocol' | 'algorithm' | 'publicKey'>): number {
  const rdata = dnskeyRdata(key);
  // RFC 4034 Appendix B.1: RSA/MD5 keys are tagged by the modulus's low-order bits instead
  if (key.algorithm === 1) return rdata.length >= 4 ? rdata.readUInt16BE(rdata.length - 3) : 0;
  let sum = 0;
  for (let i = 0; i < rdata.length; i++) sum += i & 1 ? rdata[i]! : rdata[i]! << 8;
  sum += (sum >> 16) & 0xffff;
  return sum & 0xffff;
}
