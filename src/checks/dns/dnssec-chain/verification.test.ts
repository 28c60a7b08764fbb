/**
 * The verification module against the RFCs' own examples: key tags, DS digests, signatures over
 * canonical RRsets, NSEC3 hashes and the NSEC/NSEC3 denial proofs of RFC 4035 and RFC 5155.
 */
import { createPrivateKey, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { DnskeyData, DnsRecord, RrsigData } from '../../../probes/dns/client.js';
import { keyBits } from './algorithms.js';
import { dsDigest, matchDs } from './ds-digest.js';
import { keyTag } from './key-tag.js';
import { compareCanonical } from './names.js';
import { proveNameError, proveNoData, proveNoDs, proveWildcardExpansion, type NsecRecord } from './nsec.js';
import {
  nsec3Hash,
  proveNameError3,
  proveNoData3,
  proveNoDs3,
  proveWildcardExpansion3,
  type Nsec3Record,
} from './nsec3.js';
import { checkSignature, KeyImports } from './rrsig.js';
import { signedData } from './signed-data.js';
import { newVerificationCost } from './verification-cost.js';
import {
  RFC4034_DSKEY,
  RFC4035_NSEC_CHAIN,
  RFC5155_CHAIN,
  RFC5155_HASHES,
  RFC5702,
  RFC6605,
  RFC8080,
  rrsigTime,
} from './rfc-vectors.js';

function dnskey(flags: number, algorithm: number, publicKey: string): DnskeyData {
  const key = { flags, protocol: 3, algorithm, publicKey };
  return { ...key, keyTag: keyTag(key), zoneKey: (flags & 0x100) !== 0, secureEntryPoint: (flags & 1) !== 0 };
}

function context(nowSeconds: number) {
  return { nowSeconds, keys: new KeyImports(), cost: newVerificationCost() };
}

const tampered = (base64: string) => {
  const bytes = Buffer.from(base64, 'base64');
  bytes[bytes.length - 1]! ^= 1;
  return bytes.toString('base64');
};

describe('key tags and DS digests', () => {
  it('RFC 4034 §5.4 and RFC 4509 §2.3: dskey.example.com, tag 60485, SHA-1 and SHA-256', () => {
    const key = dnskey(RFC4034_DSKEY.flags, RFC4034_DSKEY.algorithm, RFC4034_DSKEY.publicKey);
    expect(keyTag(key)).toBe(RFC4034_DSKEY.keyTag);
    expect(dsDigest(RFC4034_DSKEY.owner, key, 1)).toBe(RFC4034_DSKEY.sha1);
    expect(dsDigest(`${RFC4034_DSKEY.owner.toUpperCase()}.`, key, 2)).toBe(RFC4034_DSKEY.sha256);
  });

  it.each([...RFC6605, ...RFC8080])('RFC 6605 / RFC 8080 $name: tag $keyTag and its DS', (v) => {
    const key = dnskey(257, v.algorithm, v.publicKey);
    expect(keyTag(key)).toBe(v.keyTag);
    expect(keyBits(v.algorithm, Buffer.from(v.publicKey, 'base64'))).toBe(v.bits);
    const ds = { keyTag: v.keyTag, algorithm: v.algorithm, ...v.ds };
    expect(matchDs(v.owner, ds, [key])).toEqual({ status: 'valid', key });
    const wrong = { ...ds, digest: ds.digest.replace(/^./, (c) => (c === '0' ? '1' : '0')) };
    expect(matchDs(v.owner, wrong, [key]).status).toBe('invalid-digest');
    expect(matchDs(v.owner, { ...ds, keyTag: (v.keyTag + 1) & 0xffff }, [key]).status).toBe('no-matching-dnskey');
    expect(matchDs(v.owner, { ...ds, digestType: 3 }, [key]).status).toBe('unsupported');
  });
});

describe('RRSIG verification over canonical RRsets', () => {
  it.each(RFC5702)('RFC 5702 $name: www.example.net A with key $keyTag', (v) => {
    const key = dnskey(256, v.algorithm, v.publicKey);
    expect(keyTag(key)).toBe(v.keyTag);
    expect(keyBits(v.algorithm, Buffer.from(v.publicKey, 'base64'))).toBe(v.bits);
    const sig: RrsigData = {
      typeCovered: 'A',
      algorithm: v.algorithm,
      ...v.rrsig,
      keyTag: v.keyTag,
      signerName: 'example.net',
      signature: v.signature,
    };
    const now = rrsigTime('20200101000000');
    expect(checkSignature([v.record], sig, 'example.net', [key], context(now)).status).toBe('valid');
    expect(
      checkSignature([v.record], { ...sig, signature: tampered(v.signature) }, 'example.net', [key], context(now))
        .status,
    ).toBe('invalid-signature');
  });

  it.each(RFC6605)('RFC 6605 $name: www.example.net A with key $keyTag, and the validity window', (v) => {
    const key = dnskey(257, v.algorithm, v.publicKey);
    const sig: RrsigData = {
      typeCovered: 'A',
      algorithm: v.algorithm,
      labels: 3,
      originalTtl: 3600,
      expiration: v.expiration,
      inception: v.inception,
      keyTag: v.keyTag,
      signerName: 'example.net',
      signature: v.signature,
    };
    const during = v.inception + 86400;
    // owner name case and record TTL do not enter the signed data (RFC 4034 §6.2)
    const record = { ...v.record, name: 'WWW.Example.NET', ttl: 17 };
    const ctx = context(during);
    expect(checkSignature([record], sig, 'example.net', [key], ctx)).toEqual({ status: 'valid', key });
    expect(ctx.cost.signaturesVerified).toBe(1);
    expect(checkSignature([record], sig, 'example.net', [key], context(v.expiration + 1)).status).toBe('expired');
    expect(checkSignature([record], sig, 'example.net', [key], context(v.inception - 1)).status).toBe('not-yet-valid');
    expect(checkSignature([{ ...record, data: '192.0.2.2' }], sig, 'example.net', [key], context(during)).status).toBe(
      'invalid-signature',
    );
    expect(checkSignature([record], { ...sig, keyTag: 1 }, 'example.net', [key], context(during)).status).toBe(
      'no-matching-key',
    );
    expect(checkSignature([record], { ...sig, algorithm: 253 }, 'example.net', [key], context(during)).status).toBe(
      'unsupported-algorithm',
    );
  });

  it.each(RFC8080)('RFC 8080 $name: example.com MX signed with the example private key', (v) => {
    const key = dnskey(257, v.algorithm, v.publicKey);
    const seed = Buffer.from(v.seed, 'base64');
    const privateKey = createPrivateKey({
      key: {
        kty: 'OKP',
        crv: v.algorithm === 15 ? 'Ed25519' : 'Ed448',
        d: seed.toString('base64url'),
        x: Buffer.from(v.publicKey, 'base64').toString('base64url'),
      },
      format: 'jwk',
    });
    const record: DnsRecord = {
      name: 'example.com',
      type: 'MX',
      ttl: 3600,
      data: { preference: 10, exchange: 'mail.example.com' },
    };
    const unsigned: RrsigData = {
      typeCovered: 'MX',
      algorithm: v.algorithm,
      labels: 2,
      originalTtl: 3600,
      expiration: 1440021600,
      inception: 1438207200,
      keyTag: v.keyTag,
      signerName: 'example.com',
      signature: '',
    };
    const signature = sign(null, signedData([record], unsigned)!, privateKey).toString('base64');
    const now = 1439000000;
    expect(checkSignature([record], { ...unsigned, signature }, 'example.com', [key], context(now)).status).toBe(
      'valid',
    );
    expect(
      checkSignature([record], { ...unsigned, signature: tampered(signature) }, 'example.com', [key], context(now))
        .status,
    ).toBe('invalid-signature');
  });

  it('orders an RRset canonically and drops duplicates before signing (RFC 4034 §6.3)', () => {
    const rr = (data: string): DnsRecord => ({ name: 'example.net', type: 'A', ttl: 60, data });
    const sig = {
      typeCovered: 'A',
      algorithm: 13,
      labels: 2,
      originalTtl: 60,
      expiration: 2,
      inception: 1,
      keyTag: 1,
      signerName: 'example.net',
      signature: '',
    };
    const ordered = signedData([rr('192.0.2.1'), rr('192.0.2.10')], sig);
    expect(signedData([rr('192.0.2.10'), rr('192.0.2.1'), rr('192.0.2.1')], sig)).toEqual(ordered);
  });
});

describe('NSEC3 (RFC 5155)', () => {
  it.each(RFC5155_HASHES)('Appendix A: H(%s) = %s', (name, hash) => {
    expect(nsec3Hash(name, 'aabbccdd', 12)).toBe(hash);
  });

  const chain: Nsec3Record[] = RFC5155_CHAIN.map(([owner, next, types]) => ({
    owner: `${owner}.example`,
    hashAlgorithm: 1,
    flags: 1,
    iterations: 12,
    salt: 'aabbccdd',
    nextHashedOwner: next,
    types,
  }));
  const pick = (...hashes: string[]) => chain.filter((r) => hashes.some((h) => r.owner.startsWith(h)));

  it('B.1 name error: a.c.x.w.example, closest encloser x.w.example', () => {
    const proof = pick('0p9mhave', 'b4um86eg', '35mthgpg');
    expect(proveNameError3('a.c.x.w.example', 'example', proof).outcome).toEqual({ proven: true });
    // without the NSEC3 covering the wildcard *.x.w.example the proof is incomplete
    expect(proveNameError3('a.c.x.w.example', 'example', pick('0p9mhave', 'b4um86eg')).outcome.proven).toBe(false);
  });

  it('B.2 no data: ns1.example MX; B.2.1 an empty non-terminal y.w.example', () => {
    expect(proveNoData3('ns1.example', 'MX', 'example', pick('2t7b4g4v')).outcome).toEqual({ proven: true });
    expect(proveNoData3('ns1.example', 'A', 'example', pick('2t7b4g4v')).outcome.proven).toBe(false);
    expect(proveNoData3('y.w.example', 'A', 'example', pick('ji6neoae')).outcome).toEqual({ proven: true });
  });

  it('B.3 referral to an Opt-Out unsigned zone: c.example has no DS', () => {
    const result = proveNoDs3('c.example', 'example', pick('35mthgpg', '0p9mhave'));
    expect(result).toEqual({ outcome: { proven: true }, optOut: true });
    const withoutOptOut = pick('35mthgpg', '0p9mhave').map((r) => ({ ...r, flags: 0 }));
    expect(proveNoDs3('c.example', 'example', withoutOptOut).outcome.proven).toBe(false);
  });

  it('B.4 wildcard expansion: a.z.w.example MX from *.w.example, the next closer name covered', () => {
    expect(proveWildcardExpansion3('a.z.w.example', 2, pick('q04jkcev')).outcome).toEqual({ proven: true });
    expect(proveWildcardExpansion3('a.z.w.example', 2, pick('k8udemvp')).outcome.proven).toBe(false);
  });

  it('B.5 wildcard no data: a.z.w.example MX', () => {
    const proof = pick('k8udemvp', 'q04jkcev', 'r53bq7cc').map((r) =>
      r.owner.startsWith('r53bq7cc') ? { ...r, types: ['MX', 'RRSIG'] } : r,
    );
    expect(proveNoData3('a.z.w.example', 'AAAA', 'example', proof).outcome).toEqual({ proven: true });
    expect(proveNoData3('a.z.w.example', 'MX', 'example', proof).outcome.proven).toBe(false);
  });
});

describe('NSEC (RFC 4035 Appendix B)', () => {
  const chain: NsecRecord[] = RFC4035_NSEC_CHAIN.map(([owner, next, types]) => ({ owner, next, types }));
  const at = (...owners: string[]) => chain.filter((n) => owners.includes(n.owner));

  it('sorts names canonically (RFC 4034 §6.1)', () => {
    const names = [
      'example',
      'a.example',
      'yljkjljk.a.example',
      'Z.a.example',
      'zABC.a.EXAMPLE',
      'z.example',
      '\\001.z.example',
      '*.z.example',
      '\\200.z.example',
    ];
    const shuffled = [...names].reverse();
    expect(shuffled.sort(compareCanonical)).toEqual(names);
  });

  it('B.2 name error: ml.example', () => {
    expect(proveNameError('ml.example', 'example', at('b.example', 'example'))).toEqual({ proven: true });
    expect(proveNameError('ml.example', 'example', at('b.example')).proven).toBe(false);
  });

  it('B.3 no data: ns1.example MX', () => {
    expect(proveNoData('ns1.example', 'MX', 'example', at('ns1.example'))).toEqual({ proven: true });
    expect(proveNoData('ns1.example', 'A', 'example', at('ns1.example')).proven).toBe(false);
  });

  it('B.5 referral to an unsigned zone: b.example has NS and no DS', () => {
    expect(proveNoDs('b.example', 'example', at('b.example'))).toEqual({ proven: true });
    expect(proveNoDs('a.example', 'example', at('a.example')).proven).toBe(false);
    // the NSEC at the cut cannot deny data below it
    expect(proveNameError('mc.b.example', 'example', at('b.example', 'example')).proven).toBe(false);
  });

  it('B.6 wildcard expansion: a.z.w.example MX from *.w.example, the name covered', () => {
    expect(proveWildcardExpansion('a.z.w.example', 'example', at('x.y.w.example'))).toEqual({ proven: true });
    expect(proveWildcardExpansion('a.z.w.example', 'example', at('x.w.example')).proven).toBe(false);
  });

  it('B.7 wildcard no data: a.z.w.example AAAA', () => {
    expect(proveNoData('a.z.w.example', 'AAAA', 'example', at('x.y.w.example', '*.w.example'))).toEqual({
      proven: true,
    });
  });
});
