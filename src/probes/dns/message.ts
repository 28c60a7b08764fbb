/**
 * Pure wire-format helpers of the DNS probe: the query we send and the test an incoming packet must
 * pass to count as the answer to it (RFC 5452 §9.1: same ID, same question, from the server asked).
 */
import { randomInt } from 'node:crypto';
import dnsPacket from 'dns-packet';
import type { DecodedPacket } from 'dns-packet';
import { InputError } from '../../errors.js';
import { canonicalName } from '../../net/dns-name.js';
import type { RecordType } from './types.js';

/** RFC 9715 / DNS Flag Day 2020: a payload size that avoids IP fragmentation. */
export const EDNS_UDP_PAYLOAD = 1232;

const HEADER_BYTES = 12;
const FLAG_QR = 1 << 15;
const FLAG_TC = 1 << 9;
const OPCODE_MASK = 0xf << 11;

export interface Question {
  /** lower case, no trailing dot; '' for the root */
  readonly name: string;
  readonly type: RecordType;
}

export interface QueryFlags {
  readonly dnssecOk: boolean;
  readonly checkingDisabled: boolean;
  readonly recursionDesired: boolean;
}

/** "example.com", or "." for the root: how a name appears in messages. */
export function displayName(canonical: string): string {
  return canonical === '' ? '.' : canonical;
}

/**
 * Checks a query name against RFC 1035 §2.3.4 (labels of 1–63 octets, at most 255 octets on the
 * wire) and the ASCII rule (callers convert IDNs to A-labels first). Any printable character other
 * than "." and "\" may appear in a label: DNSBL and _service names are not LDH. A name built from
 * caller input (selector + domain) can break these bounds, hence an InputError (400).
 */
export function validatedQuestion(name: string, type: RecordType): Question {
  const canonical = canonicalName(name);
  if (canonical !== '') {
    const labels = canonical.split('.');
    for (const label of labels) {
      if (label.length === 0 || label.length > 63) {
        throw new InputError('name', `"${name}" is not a valid DNS name: every label must have 1 to 63 characters`);
      }
      if (!/^[\x21-\x2d\x2f-\x5b\x5d-\x7e]+$/.test(label)) {
        throw new InputError('name', `"${name}" is not a valid DNS name: use printable ASCII (A-labels for IDNs)`);
      }
    }
    // wire length: one length octet per label, the label octets, the root octet
    if (canonical.length + 2 > 255) {
      throw new InputError('name', `"${name}" is not a valid DNS name: longer than 253 characters`);
    }
  }
  return { name: canonical, type };
}

/** A random 16-bit ID (RFC 5452 §9.2): the source port is random too, one socket per question. */
export function randomQueryId(): number {
  return randomInt(0, 0x10000);
}

/**
 * Encodes the query. EDNS0 is always present (RFC 6891) so the server may answer up to 1232 bytes
 * over UDP and can see DO. AD is set in every query, as dig does: RFC 6840 §5.7 lets a validating
 * resolver report AD to a client that sets it, without the client having to ask for signatures.
 */
export function encodeQuery(id: number, question: Question, flags: QueryFlags): Buffer {
  return dnsPacket.encode({
    type: 'query',
    id,
    flags:
      (flags.recursionDesired ? dnsPacket.RECURSION_DESIRED : 0) |
      (flags.checkingDisabled ? dnsPacket.CHECKING_DISABLED : 0) |
      dnsPacket.AUTHENTIC_DATA,
    questions: [{ type: question.type, name: question.name === '' ? '.' : question.name, class: 'IN' }],
    additionals: [
      {
        type: 'OPT',
        name: '.',
        udpPayloadSize: EDNS_UDP_PAYLOAD,
        extendedRcode: 0,
        ednsVersion: 0,
        flags: flags.dnssecOk ? dnsPacket.DNSSEC_OK : 0,
        // only read when decoding; encode() takes DO from `flags`
        flag_do: flags.dnssecOk,
        options: [],
      },
    ],
  });
}

/** The outcome of holding a packet up against the question it should answer. */
export type Match =
  | { readonly kind: 'answer'; readonly packet: DecodedPacket }
  /** TC set: the rest may be cut mid-record (RFC 2181 §9), so it is not decoded further. */
  | { readonly kind: 'truncated' }
  | { readonly kind: 'mismatch'; readonly reason: string }
  | { readonly kind: 'undecodable'; readonly reason: string };

/** dns-packet's decoder adds `rcode`/`opcode` that its type declarations omit. */
export type ResponsePacket = DecodedPacket & { readonly rcode?: string; readonly opcode?: string };

/**
 * Decides whether `bytes` is the answer to query `id`/`question`. An answer to an error (rcode other
 * than NOERROR/NXDOMAIN) may come without a question section (RFC 6891 §7 and common practice with
 * FORMERR/REFUSED); it is accepted on the ID alone, as it carries no data.
 */
export function matchResponse(bytes: Buffer, id: number, question: Question, transport: 'udp' | 'tcp'): Match {
  if (bytes.length < HEADER_BYTES) return { kind: 'undecodable', reason: `a ${bytes.length}-byte packet` };
  const flags = bytes.readUInt16BE(2);
  if (bytes.readUInt16BE(0) !== id) return { kind: 'mismatch', reason: 'a packet with another ID' };
  if ((flags & FLAG_QR) === 0) return { kind: 'mismatch', reason: 'a query instead of a response' };
  if ((flags & OPCODE_MASK) !== 0) return { kind: 'mismatch', reason: 'a response with an opcode other than QUERY' };
  // Over TCP, TC only says that the answer passed 64 KiB (RFC 7766 §8): what came is all there is.
  if ((flags & FLAG_TC) !== 0 && transport === 'udp') return { kind: 'truncated' };
  let packet: ResponsePacket;
  try {
    packet = dnsPacket.decode(bytes);
  } catch (e) {
    return { kind: 'undecodable', reason: `an undecodable packet (${(e as Error).message})` };
  }
  // dns-packet reads past the end of a short packet without complaint (an A record cut short
  // decodes as "192.undefined…"): a packet must hold every byte its records took
  if (dnsPacket.decode.bytes > bytes.length) {
    return { kind: 'undecodable', reason: 'a packet that ends inside a record' };
  }
  const questions = packet.questions ?? [];
  const rcode = flags & 0x0f;
  if (questions.length === 0 && rcode !== 0 && rcode !== 3) return { kind: 'answer', packet };
  const q = questions[0];
  if (
    questions.length !== 1 ||
    q === undefined ||
    canonicalName(q.name) !== question.name ||
    q.type !== question.type ||
    (q.class ?? 'IN') !== 'IN'
  ) {
    return { kind: 'mismatch', reason: 'a response to another question' };
  }
  return { kind: 'answer', packet };
}

/** The 12-bit rcode: 4 bits in the header, 8 more in the OPT record (RFC 6891 §6.1.3). */
export function fullRcode(packet: ResponsePacket): number {
  const low = (packet.flags ?? 0) & 0x0f;
  const opt = (packet.additionals ?? []).find((a) => a.type === 'OPT');
  const high = opt && 'extendedRcode' in opt ? opt.extendedRcode : 0;
  return (high << 4) | low;
}

const RCODE_NAMES: Readonly<Record<number, string>> = {
  0: 'NOERROR',
  1: 'FORMERR',
  2: 'SERVFAIL',
  3: 'NXDOMAIN',
  4: 'NOTIMP',
  5: 'REFUSED',
  6: 'YXDOMAIN',
  7: 'YXRRSET',
  8: 'NXRRSET',
  9: 'NOTAUTH',
  10: 'NOTZONE',
  11: 'DSOTYPENI',
  16: 'BADVERS',
  23: 'BADCOOKIE',
};

/** IANA "DNS RCODEs" mnemonic, or "RCODE<n>". */
export function rcodeName(rcode: number): string {
  return RCODE_NAMES[rcode] ?? `RCODE${rcode}`;
}
