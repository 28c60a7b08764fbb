/** The pure wire helpers: what counts as the answer, what the query says, how rcodes are read. */
import dnsPacket from 'dns-packet';
import type { Packet } from 'dns-packet';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../../../src/errors.js';
import { ProbeError } from '../../../../src/probes/errors.js';
import { QuestionFailures } from '../../../../src/probes/dns/failures.js';
import {
  encodeQuery,
  fullRcode,
  matchResponse,
  rcodeName,
  validatedQuestion,
} from '../../../../src/probes/dns/message.js';
import type { ResponsePacket } from '../../../../src/probes/dns/message.js';
import { interpretResponse } from '../../../../src/probes/dns/response.js';

const question = validatedQuestion('Example.TEST.', 'A');
const ID = 0x1234;
const reply = (overrides: Partial<Packet> = {}): Buffer =>
  dnsPacket.encode({
    type: 'response',
    id: ID,
    flags: 0,
    questions: [{ name: 'example.test', type: 'A', class: 'IN' }],
    answers: [{ name: 'example.test', type: 'A', ttl: 60, data: '192.0.2.1' }],
    ...overrides,
  });

describe('validatedQuestion', () => {
  it('lower-cases and drops the trailing dot; "." is the root', () => {
    expect(question).toEqual({ name: 'example.test', type: 'A' });
    expect(validatedQuestion('.', 'NS')).toEqual({ name: '', type: 'NS' });
  });

  it('accepts 63-octet labels and a 253-character name, refuses one more', () => {
    const label63 = 'a'.repeat(63);
    expect(() => validatedQuestion(`${label63}.test`, 'A')).not.toThrow();
    const name253 = `${label63}.${label63}.${label63}.${'b'.repeat(61)}`;
    expect(name253).toHaveLength(253);
    expect(() => validatedQuestion(name253, 'A')).not.toThrow();
    expect(() => validatedQuestion(`c${name253}`, 'A')).toThrow(InputError);
  });
});

describe('encodeQuery', () => {
  it('sets RD, CD, AD and DO as asked, with one question and an EDNS0 OPT of 1232 bytes', () => {
    const decoded = dnsPacket.decode(
      encodeQuery(ID, question, { dnssecOk: true, checkingDisabled: true, recursionDesired: false }),
    );
    expect(decoded).toMatchObject({ id: ID, flag_qr: false, flag_rd: false, flag_cd: true, flag_ad: true });
    expect(decoded.questions).toEqual([{ name: 'example.test', type: 'A', class: 'IN' }]);
    expect(decoded.additionals).toMatchObject([{ type: 'OPT', udpPayloadSize: 1232, flag_do: true, ednsVersion: 0 }]);
    const plain = dnsPacket.decode(
      encodeQuery(ID, question, { dnssecOk: false, checkingDisabled: false, recursionDesired: true }),
    );
    expect(plain).toMatchObject({ flag_rd: true, flag_cd: false });
    expect(plain.additionals).toMatchObject([{ flag_do: false }]);
  });

  it('asks the root as the empty name', () => {
    const decoded = dnsPacket.decode(
      encodeQuery(ID, validatedQuestion('.', 'DNSKEY'), {
        dnssecOk: true,
        checkingDisabled: false,
        recursionDesired: true,
      }),
    );
    expect(decoded.questions).toEqual([{ name: '.', type: 'DNSKEY', class: 'IN' }]);
  });
});

describe('matchResponse', () => {
  it('takes the answer to this ID and question, in any letter case', () => {
    expect(matchResponse(reply(), ID, question, 'udp').kind).toBe('answer');
    const shouting = reply({ questions: [{ name: 'EXAMPLE.test', type: 'A', class: 'IN' }] });
    expect(matchResponse(shouting, ID, question, 'udp').kind).toBe('answer');
  });

  it.each([
    ['another ID', reply({ id: ID + 1 }), 'another ID'],
    [
      'a query',
      dnsPacket.encode({ type: 'query', id: ID, questions: [{ name: 'example.test', type: 'A' }] }),
      'a query',
    ],
    ['another name', reply({ questions: [{ name: 'other.test', type: 'A', class: 'IN' }] }), 'another question'],
    ['another type', reply({ questions: [{ name: 'example.test', type: 'AAAA', class: 'IN' }] }), 'another question'],
    ['another class', reply({ questions: [{ name: 'example.test', type: 'A', class: 'CH' }] }), 'another question'],
    [
      'two questions',
      reply({
        questions: [
          { name: 'example.test', type: 'A' },
          { name: 'example.test', type: 'A' },
        ],
      }),
      'another question',
    ],
    ['another opcode', reply({ flags: 2 << 11 }), 'opcode'],
    ['a NOERROR without question', reply({ questions: [] }), 'another question'],
  ])('sets aside %s', (_, bytes, reason) => {
    const match = matchResponse(bytes, ID, question, 'udp');
    expect(match.kind).toBe('mismatch');
    expect(match.kind === 'mismatch' && match.reason).toContain(reason);
  });

  it('calls short and broken packets undecodable', () => {
    expect(matchResponse(Buffer.from([1, 2, 3]), ID, question, 'udp')).toEqual({
      kind: 'undecodable',
      reason: 'a 3-byte packet',
    });
    const cut = reply().subarray(0, reply().length - 3);
    expect(matchResponse(cut, ID, question, 'udp').kind).toBe('undecodable');
  });

  it('over UDP a TC packet is "truncated" even when cut mid-record; over TCP it is read', () => {
    const tc = reply({ flags: dnsPacket.TRUNCATED_RESPONSE });
    expect(matchResponse(tc.subarray(0, tc.length - 3), ID, question, 'udp')).toEqual({ kind: 'truncated' });
    expect(matchResponse(tc, ID, question, 'tcp').kind).toBe('answer');
  });

  it('takes an error answer without a question section on its ID', () => {
    const refused = reply({ flags: 5, questions: [], answers: [] });
    expect(matchResponse(refused, ID, question, 'udp').kind).toBe('answer');
  });
});

describe('rcodes', () => {
  const failures = new QuestionFailures('127.0.0.1:53', 'A example.test', 2000);
  const delivery = { transport: 'udp' as const, server: '127.0.0.1:53', elapsedMs: 1 };
  const decode = (bytes: Buffer) => dnsPacket.decode(bytes) as ResponsePacket;

  it('reads the extended rcode from OPT (RFC 6891 §6.1.3) and fails on BADVERS', () => {
    const badvers = decode(
      reply({
        flags: 0,
        answers: [],
        additionals: [
          {
            type: 'OPT',
            name: '.',
            udpPayloadSize: 1232,
            extendedRcode: 1,
            ednsVersion: 0,
            flags: 0,
            flag_do: false,
            options: [],
          },
        ],
      }),
    );
    expect(fullRcode(badvers)).toBe(16);
    expect(rcodeName(16)).toBe('BADVERS');
    const e = (() => {
      try {
        interpretResponse(badvers, delivery, failures);
      } catch (x) {
        return x;
      }
      return undefined;
    })();
    expect(e).toBeInstanceOf(ProbeError);
    expect((e as ProbeError).kind).toBe('SERVFAIL');
    expect((e as ProbeError).message).toContain('rcode BADVERS');
  });

  it('names unassigned rcodes by number', () => {
    expect(rcodeName(12)).toBe('RCODE12');
  });

  it('NOERROR and NXDOMAIN are results', () => {
    expect(interpretResponse(decode(reply()), delivery, failures).rcode).toBe('NOERROR');
    expect(interpretResponse(decode(reply({ flags: 3, answers: [] })), delivery, failures).rcode).toBe('NXDOMAIN');
  });
});
