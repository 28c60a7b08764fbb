/** Key tags (RFC 4034 Appendix B): how DS and RRSIG records point at a DNSKEY; the probe computes them. */
import type { DnskeyData } from '../../../probes/dns/client.js';
import { dnskeyTag } from '../../../probes/dns/records.js';

export function keyTag(key: Pick<DnskeyData, 'flags' | 'protocol' | 'algorithm' | 'publicKey'>): number {
  return dnskeyTag(key.flags, key.protocol, key.algorithm, Buffer.from(key.publicKey, 'base64'));
}
