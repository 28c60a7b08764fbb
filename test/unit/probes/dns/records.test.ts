import dnsPacket from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDnsClient } from '../../../../src/probes/dns/client.js';
import type { DnsResponse, RecordType } from '../../../../src/probes/dns/client.js';
import { dnskeyTag, toDnsRecords } from '../../../../src/probes/dns/records.js';
import { rr, startDnsLab } from '../../../lab/dns-server.js';
import type { DnsLab } from '../../../lab/dns-server.js';

// Keys made with ldns-keygen; the tags are the ones ldns printed (RFC 4034 Appendix B).
const KSK_P256 = '4++DrRquKGRre7CMqk8OntfBAG5I27tuETc8v9SxyPWerzZ0GxyTctF4JLpbdVbF8e0rkFs4gR+rjwZa6MPXrQ==';
const KSK_P256_TAG = 58396;
const ZSK_RSA =
  'AwEAAby/P6MPg48waOUuVLqyzhNWbhL43rfYBCvfb7IjSP/j+XyIFmSXSk6Z2ECJ4dt2+VP5YvF8Mql5sfFcalF/WEfMe0CITSyxKkCiRTcHwy7ToHsMhQYpLBpO6v1CaekUz94GXE30tnXHFRv9v2yoEz5B7hatKuat+llVd/XrlXfh';
const ZSK_RSA_TAG = 43314;
const DS_DIGEST = 'f82861831fdf73dc41a22e1f3833486a6cdf5c64e73379921a46f6221fbe3cf3';

let lab: DnsLab;
const client = createDnsClient({ timeoutMs: 2000 });
const ask = (name: string, type: RecordType): Promise<DnsResponse> => client.query({ name, type, server: lab.address });

beforeAll(async () => {
  lab = await startDnsLab({
    records: [
      rr.a('rt.test', '192.0.2.1', 120),
      rr.a('rt.test', '192.0.2.2', 120),
      rr.aaaa('rt.test', '2001:db8::1'),
      rr.mx('rt.test', 10, 'mx1.rt.test'),
      rr.mx('rt.test', 0, '.'),
      rr.cname('alias.rt.test', 'rt.test'),
      rr.ns('rt.test', 'ns1.rt.test'),
      rr.soa('rt.test', { serial: 2026010101, refresh: 7200, retry: 900, expire: 1209600, minimum: 300 }, 3600),
      rr.ptr('1.2.0.192.in-addr.arpa', 'rt.test'),
      rr.ds('rt.test', KSK_P256_TAG, 13, 2, DS_DIGEST),
      rr.dnskey('rt.test', 257, 13, KSK_P256),
      rr.dnskey('rt.test', 256, 8, ZSK_RSA),
      rr.rrsig('rt.test', {
        typeCovered: 'A',
        algorithm: 13,
        labels: 2,
        originalTtl: 120,
        expiration: 1_800_000_000,
        inception: 1_700_000_000,
        keyTag: KSK_P256_TAG,
        signerName: 'rt.test',
        signatureBase64: Buffer.from('signature bytes').toString('base64'),
      }),
      rr.caa('rt.test', 'issue', 'letsencrypt.org'),
      rr.caa('rt.test', 'iodef', 'mailto:security@rt.test', 128),
      rr.srv('_sip._tcp.rt.test', 10, 60, 5060, 'sip.rt.test'),
      rr.txt('rt.test', 'v=spf1 -all'),
      rr.txt('split.rt.test', ['v=DKIM1; k=rsa; ', 'p=MIGfMA0']),
      rr.txt('long.rt.test', 'x'.repeat(300) + 'y'.repeat(300)),
      // "é" is 0xc3 0xa9: cut between the two strings, it must come back whole
      rr.txt('utf8.rt.test', [Buffer.from([0x63, 0x61, 0x66, 0xc3]), Buffer.from([0xa9])]),
      rr.txt('empty.rt.test', ''),
    ],
  });
});
afterAll(() => lab.close());

describe('record types round trip through the lab', () => {
  it('A and AAAA are address strings with their TTLs', async () => {
    const a = await ask('rt.test', 'A');
    expect(a.answers).toEqual([
      { name: 'rt.test', type: 'A', ttl: 120, data: '192.0.2.1' },
      { name: 'rt.test', type: 'A', ttl: 120, data: '192.0.2.2' },
    ]);
    const aaaa = await ask('rt.test', 'AAAA');
    expect(aaaa.answers).toEqual([{ name: 'rt.test', type: 'AAAA', ttl: 300, data: '2001:db8::1' }]);
  });

  it('MX keeps preference and exchange, including a null MX (RFC 7505)', async () => {
    const mx = await ask('rt.test', 'MX');
    expect(mx.answers.map((r) => r.data)).toEqual([
      { preference: 10, exchange: 'mx1.rt.test' },
      { preference: 0, exchange: '.' },
    ]);
  });

  it('CNAME, NS and PTR are name strings', async () => {
    expect((await ask('alias.rt.test', 'CNAME')).answers).toEqual([
      { name: 'alias.rt.test', type: 'CNAME', ttl: 300, data: 'rt.test' },
    ]);
    expect((await ask('rt.test', 'NS')).answers.map((r) => r.data)).toEqual(['ns1.rt.test']);
    expect((await ask('1.2.0.192.in-addr.arpa', 'PTR')).answers.map((r) => r.data)).toEqual(['rt.test']);
  });

  it('SOA has every field', async () => {
    const soa = await ask('rt.test', 'SOA');
    expect(soa.answers).toEqual([
      {
        name: 'rt.test',
        type: 'SOA',
        ttl: 3600,
        data: {
          mname: 'ns1.rt.test',
          rname: 'hostmaster.rt.test',
          serial: 2026010101,
          refresh: 7200,
          retry: 900,
          expire: 1209600,
          minimum: 300,
        },
      },
    ]);
  });

  it('DNSKEY gives the key in base64, the flags decoded and the key tag computed', async () => {
    const keys = await ask('rt.test', 'DNSKEY');
    expect(keys.answers.map((r) => r.data)).toEqual([
      {
        flags: 257,
        protocol: 3,
        algorithm: 13,
        publicKey: KSK_P256,
        keyTag: KSK_P256_TAG,
        zoneKey: true,
        secureEntryPoint: true,
      },
      {
        flags: 256,
        protocol: 3,
        algorithm: 8,
        publicKey: ZSK_RSA,
        keyTag: ZSK_RSA_TAG,
        zoneKey: true,
        secureEntryPoint: false,
      },
    ]);
  });

  it('DS gives the digest in upper-case hex', async () => {
    const ds = await ask('rt.test', 'DS');
    expect(ds.answers.map((r) => r.data)).toEqual([
      { keyTag: KSK_P256_TAG, algorithm: 13, digestType: 2, digest: DS_DIGEST.toUpperCase() },
    ]);
  });

  it('RRSIG has every field and the signature in base64', async () => {
    const sig = await ask('rt.test', 'RRSIG');
    expect(sig.answers.map((r) => r.data)).toEqual([
      {
        typeCovered: 'A',
        algorithm: 13,
        labels: 2,
        originalTtl: 120,
        expiration: 1_800_000_000,
        inception: 1_700_000_000,
        keyTag: KSK_P256_TAG,
        signerName: 'rt.test',
        signature: Buffer.from('signature bytes').toString('base64'),
      },
    ]);
  });

  it('CAA reports flags, the critical bit, tag and value', async () => {
    const caa = await ask('rt.test', 'CAA');
    expect(caa.answers.map((r) => r.data)).toEqual([
      { flags: 0, critical: false, tag: 'issue', value: 'letsencrypt.org' },
      { flags: 128, critical: true, tag: 'iodef', value: 'mailto:security@rt.test' },
    ]);
  });

  it('SRV has priority, weight, port and target', async () => {
    const srv = await ask('_sip._tcp.rt.test', 'SRV');
    expect(srv.answers.map((r) => r.data)).toEqual([{ priority: 10, weight: 60, port: 5060, target: 'sip.rt.test' }]);
  });
});

describe('TXT joining (RFC 7208 §3.3)', () => {
  it('gives one string per record', async () => {
    expect((await ask('rt.test', 'TXT')).answers.map((r) => r.data)).toEqual(['v=spf1 -all']);
  });

  it('joins the character-strings of one record without a separator', async () => {
    expect((await ask('split.rt.test', 'TXT')).answers.map((r) => r.data)).toEqual(['v=DKIM1; k=rsa; p=MIGfMA0']);
  });

  it('a record longer than 255 bytes travels as several strings and comes back whole', async () => {
    const txt = await ask('long.rt.test', 'TXT');
    expect(txt.answers).toHaveLength(1);
    expect(txt.answers[0]!.data).toBe('x'.repeat(300) + 'y'.repeat(300));
  });

  it('joins bytes before decoding UTF-8, so a character cut between strings survives', async () => {
    expect((await ask('utf8.rt.test', 'TXT')).answers.map((r) => r.data)).toEqual(['café']);
  });

  it('an empty TXT record is the empty string', async () => {
    expect((await ask('empty.rt.test', 'TXT')).answers.map((r) => r.data)).toEqual(['']);
  });
});

describe('records outside RecordType (authority sections, other types)', () => {
  const decodeRecords = (answers: dnsPacket.Answer[]) =>
    toDnsRecords(dnsPacket.decode(dnsPacket.encode({ type: 'response', id: 1, answers })).answers);

  it('NSEC gives the next name and the type list', () => {
    const [nsec] = decodeRecords([
      { name: 'a.test', type: 'NSEC', ttl: 60, data: { nextDomain: 'c.test', rrtypes: ['A', 'RRSIG', 'NSEC'] } },
    ]);
    expect(nsec).toEqual({
      name: 'a.test',
      type: 'NSEC',
      ttl: 60,
      data: { nextDomain: 'c.test', types: ['A', 'RRSIG', 'NSEC'] },
    });
  });

  it('NSEC3 gives the salt in hex and the next hashed owner in base32hex', () => {
    const [nsec3] = decodeRecords([
      {
        name: '2vptu5timamqttgl4luu9kg21e0aor3s.test',
        type: 'NSEC3',
        ttl: 60,
        data: {
          algorithm: 1,
          flags: 1,
          iterations: 0,
          salt: Buffer.from('aabbccdd', 'hex'),
          // RFC 4648 §10 test vector: "foobar" is CPNMUOJ1E8 in base32hex
          nextDomain: Buffer.from('foobar'),
          rrtypes: ['A', 'RRSIG'],
        },
      },
    ]);
    expect(nsec3!.data).toEqual({
      hashAlgorithm: 1,
      flags: 1,
      iterations: 0,
      salt: 'aabbccdd',
      nextHashedOwner: 'cpnmuoj1e8',
      types: ['A', 'RRSIG'],
    });
  });

  it('other types give their RDATA in hex (RFC 3597); TLSA is read into its fields', () => {
    const [tlsa, hinfo] = decodeRecords([
      {
        name: '_443._tcp.a.test',
        type: 'TLSA',
        ttl: 60,
        data: { usage: 3, selector: 1, matchingType: 1, certificate: Buffer.from('0102', 'hex') },
      },
      { name: 'a.test', type: 'HINFO', ttl: 60, data: { cpu: 'X', os: 'Y' } },
    ]);
    // TLSA is read field by field (dane, RFC 6698 §2.1); HINFO stays opaque
    expect(tlsa!.data).toEqual({ usage: 3, selector: 1, matchingType: 1, data: '0102' });
    expect(hinfo!.data).toEqual({ rdataHex: '01580159' });
  });

  it('the OPT pseudo-record never shows up as a record', () => {
    const records = decodeRecords([
      {
        type: 'OPT',
        name: '.',
        udpPayloadSize: 1232,
        extendedRcode: 0,
        ednsVersion: 0,
        flags: 0,
        flag_do: false,
        options: [],
      },
    ]);
    expect(records).toEqual([]);
  });
});

describe('dnskeyTag (RFC 4034 Appendix B)', () => {
  it('matches the tags ldns computed', () => {
    expect(dnskeyTag(257, 3, 13, Buffer.from(KSK_P256, 'base64'))).toBe(KSK_P256_TAG);
    expect(dnskeyTag(256, 3, 8, Buffer.from(ZSK_RSA, 'base64'))).toBe(ZSK_RSA_TAG);
  });
});
