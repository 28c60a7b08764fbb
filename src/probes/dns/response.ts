/**
 * From a decoded answer packet to a DnsResponse, or to the ProbeError its rcode stands for
 * (decisions §8: NOERROR and NXDOMAIN are results, every other rcode is a failure).
 */
import type { QuestionFailures } from './failures.js';
import { fullRcode, rcodeName } from './message.js';
import type { ResponsePacket } from './message.js';
import { toDnsRecords } from './records.js';
import type { DnsRecord, DnsResponse } from './types.js';

const NOERROR = 0;
const NXDOMAIN = 3;

export interface Delivery {
  readonly transport: 'udp' | 'tcp';
  /** "host:port" */
  readonly server: string;
  readonly elapsedMs: number;
}

export function interpretResponse(packet: ResponsePacket, delivery: Delivery, failures: QuestionFailures): DnsResponse {
  const rcode = fullRcode(packet);
  if (rcode !== NOERROR && rcode !== NXDOMAIN) throw failures.rcode(rcodeName(rcode));
  let answers: DnsRecord[];
  let authority: DnsRecord[];
  try {
    answers = toDnsRecords(packet.answers);
    authority = toDnsRecords(packet.authorities);
  } catch (e) {
    throw failures.malformed(`records that cannot be read (${(e as Error).message})`);
  }
  return {
    rcode: rcode === NOERROR ? 'NOERROR' : 'NXDOMAIN',
    authoritative: packet.flag_aa,
    authenticData: packet.flag_ad,
    recursionAvailable: packet.flag_ra,
    truncated: packet.flag_tc,
    answers,
    authority,
    server: delivery.server,
    elapsedMs: delivery.elapsedMs,
    transport: delivery.transport,
  };
}
