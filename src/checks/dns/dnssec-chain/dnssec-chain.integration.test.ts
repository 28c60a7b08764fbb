/**
 * dnssec-chain end to end against the DNSSEC chain lab (test/lab/dnssec-chain-lab.ts): a signed root
 * of its own, "lab." below it, and one zone per way a chain breaks, served by an authoritative unbound
 * and resolved by a validating unbound whose only trust anchor is the lab root. Every code of the
 * contract is produced by a zone and asserted, and dnssec-test (the validating resolver's verdict)
 * and dnssec-chain (netdiag's own verification) agree on every zone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DNSSEC_CHAIN_ZONES as Z,
  startDnssecChainLab,
  type DnssecChainLab,
} from '../../../../test/lab/dnssec-chain-lab.js';
import { missingDnssecPrograms } from '../../../../test/lab/unbound.js';
import { CHAIN_ERROR_CODES, CHAIN_WARNING_CODES } from './result.js';
import { createTestApp, graphql, type TestApp } from '../../../../test/helpers/app.js';
import { createCheckContext } from '../../../loaders/context.js';
import { daneFacts, daneFindings } from '../../mail-transport/dane/mailhealth-part.js';

const missing = missingDnssecPrograms();
const suiteName =
  missing.length > 0
    ? `dnssec-chain against the chain lab — SKIPPED: ${missing.join(', ')} not installed (Debian packages unbound, ldnsutils)`
    : 'dnssec-chain against the chain lab';

describe.skipIf(missing.length > 0)(suiteName, () => {
  let lab: DnssecChainLab;
  let t: TestApp;

  beforeAll(async () => {
    lab = await startDnssecChainLab();
    t = await createTestApp({
      dns: { system: [`${lab.resolver.host}:${lab.resolver.port}`], timeoutMs: 3000 },
      dnssec: { trustAnchors: [lab.trustAnchor] },
      quota: { credits: 100_000 },
    });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await lab?.close();
  });

  const chain = async (domain: string, type?: string) => {
    const res = await t.get(`/api/v1/dnssec-chain?domain=${domain}${type ? `&type=${type}` : ''}`);
    const body = await res.json();
    if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(body)}\n${lab.logs()}`);
    return body.data;
  };

  interface Case {
    readonly name: string;
    readonly type?: string;
    readonly status: 'secure' | 'insecure' | 'bogus' | 'indeterminate';
    /** the broken link's zone and code; null when secure or insecure */
    readonly broken: readonly [string, string] | null;
    /** codes expected in the errors and warnings of the last zone of the chain */
    readonly errors?: readonly string[];
    readonly warnings?: readonly string[];
    readonly denial?: Record<string, unknown>;
  }

  const cases: readonly Case[] = [
    { name: Z.secure, status: 'secure', broken: null, errors: [], warnings: [] },
    { name: `nothing.${Z.secure}`, status: 'secure', broken: null, denial: { kind: 'nsec', status: 'valid' } },
    { name: `txt.${Z.secure}`, type: 'TXT', status: 'secure', broken: null, errors: [] },
    { name: `x.wild.${Z.secure}`, status: 'secure', broken: null, errors: [] },
    { name: `x.wild.${Z.nsec3}`, status: 'secure', broken: null, errors: [] },
    { name: `www.${Z.secure}`, type: 'MX', status: 'secure', broken: null, denial: { kind: 'nsec', status: 'valid' } },
    {
      name: `nothing.${Z.nsec3}`,
      status: 'secure',
      broken: null,
      denial: { kind: 'nsec3', status: 'valid', iterations: 0, optOut: false },
    },
    {
      name: `www.${Z.nsec3}`,
      type: 'MX',
      status: 'secure',
      broken: null,
      denial: { kind: 'nsec3', status: 'valid', iterations: 0 },
    },
    { name: Z.nsec3Island, status: 'insecure', broken: null },
    { name: Z.island, status: 'insecure', broken: null },
    { name: Z.plain, status: 'insecure', broken: null },
    {
      name: `nothing.${Z.iterations}`,
      status: 'secure',
      broken: null,
      warnings: ['NSEC3_ITERATIONS'],
      denial: { kind: 'nsec3', status: 'valid', iterations: 5 },
    },
    {
      name: Z.digestMismatch,
      status: 'bogus',
      broken: [Z.digestMismatch, 'DS_DIGEST_MISMATCH'],
      errors: ['DS_DIGEST_MISMATCH', 'NO_TRUSTED_DNSKEY'],
    },
    {
      name: Z.unpublishedKey,
      status: 'bogus',
      broken: [Z.unpublishedKey, 'DS_NO_MATCHING_DNSKEY'],
      errors: ['DS_NO_MATCHING_DNSKEY', 'NO_TRUSTED_DNSKEY'],
    },
    {
      name: Z.expired,
      status: 'bogus',
      broken: [Z.expired, 'RRSIG_EXPIRED'],
      errors: ['RRSIG_EXPIRED', 'NO_TRUSTED_DNSKEY'],
    },
    {
      name: Z.notYetValid,
      status: 'bogus',
      broken: [Z.notYetValid, 'RRSIG_NOT_YET_VALID'],
      errors: ['RRSIG_NOT_YET_VALID', 'NO_TRUSTED_DNSKEY'],
    },
    {
      name: Z.tampered,
      status: 'bogus',
      broken: [Z.tampered, 'RRSIG_INVALID'],
      errors: ['RRSIG_INVALID', 'NO_TRUSTED_DNSKEY'],
    },
    {
      name: Z.unsignedKeys,
      status: 'bogus',
      broken: [Z.unsignedKeys, 'RRSIG_MISSING'],
      errors: ['RRSIG_MISSING', 'NO_TRUSTED_DNSKEY'],
    },
    { name: Z.noDnskey, status: 'bogus', broken: [Z.noDnskey, 'DNSKEY_MISSING'], errors: ['DNSKEY_MISSING'] },
    { name: Z.expiresSoon, status: 'secure', broken: null, warnings: ['RRSIG_EXPIRES_SOON'] },
    { name: Z.rsasha1, status: 'secure', broken: null, warnings: ['ALGORITHM_DEPRECATED', 'DIGEST_SHA1'] },
    {
      name: `b.${Z.denialMissing}`,
      status: 'bogus',
      broken: [Z.denialMissing, 'DENIAL_MISSING'],
      errors: ['DENIAL_MISSING'],
      denial: { status: 'missing' },
    },
    {
      name: `b.${Z.denialInvalid}`,
      status: 'bogus',
      broken: [Z.denialInvalid, 'DENIAL_INVALID'],
      errors: ['DENIAL_INVALID'],
      denial: { kind: 'nsec', status: 'invalid' },
    },
    {
      name: Z.unproven,
      status: 'bogus',
      broken: [Z.unproven, 'INSECURE_DELEGATION_UNPROVEN'],
      errors: ['INSECURE_DELEGATION_UNPROVEN'],
    },
    { name: Z.lame, status: 'indeterminate', broken: [Z.lame, 'SERVER_FAILURE'], errors: ['SERVER_FAILURE'] },
    { name: Z.unknownAlgorithm, status: 'insecure', broken: null, errors: ['ALGORITHM_UNSUPPORTED'] },
    { name: Z.prohibitedAlgorithm, status: 'insecure', broken: null, errors: ['ALGORITHM_PROHIBITED'] },
    { name: Z.prohibitedDigest, status: 'insecure', broken: null, errors: ['DIGEST_PROHIBITED'] },
    { name: `www.${Z.revoked}`, status: 'secure', broken: null, warnings: ['REVOKED_KEY_IN_USE'] },
  ];

  const seen = { errors: new Set<string>(), warnings: new Set<string>() };

  it.each(cases)('$name $type: $status', async (c) => {
    const data = await chain(c.name, c.type);
    expect(data.status, JSON.stringify(data)).toBe(c.status);
    expect(data.brokenLink === null ? null : [data.brokenLink.zone, data.brokenLink.code]).toEqual(c.broken);
    if (data.brokenLink) expect(data.brokenLink.message).toMatch(/\S/);
    expect(data.chain.slice(0, 2).map((l: { zone: string }) => l.zone)).toEqual(['.', 'lab']);
    const last = data.chain[data.chain.length - 1];
    const errorCodes = last.errors.map((e: { code: string }) => e.code);
    const warningCodes = last.warnings.map((w: { code: string }) => w.code);
    if (c.errors) expect(errorCodes).toEqual(c.errors);
    if (c.warnings) expect(warningCodes).toEqual(c.warnings);
    if (c.denial) expect(data.answer.denial).toMatchObject(c.denial);
    for (const link of data.chain) {
      for (const e of link.errors) seen.errors.add(e.code);
      for (const w of link.warnings) seen.warnings.add(w.code);
    }
  });

  it('produces every error and warning code of the contract from a lab zone', () => {
    expect([...seen.errors].sort()).toEqual([...CHAIN_ERROR_CODES].sort());
    expect([...seen.warnings].sort()).toEqual([...CHAIN_WARNING_CODES].sort());
  });

  it('shows each link: trust anchor, DS, keys and signatures from the root down', async () => {
    const data = await chain(Z.secure);
    expect(data.chain.map((l: { zone: string; status: string }) => [l.zone, l.status])).toEqual([
      ['.', 'secure'],
      ['lab', 'secure'],
      [Z.secure, 'secure'],
    ]);
    const [root, , zone] = data.chain;
    const anchorTag = Number(lab.trustAnchor.split(/\s+/)[3]);
    expect(root.ds).toEqual([
      {
        keyTag: anchorTag,
        algorithm: 13,
        digestType: 2,
        digest: expect.stringMatching(/^[0-9A-F]{64}$/),
        status: 'valid',
      },
    ]);
    expect(zone.dnskeys).toEqual([
      { keyTag: zone.ds[0].keyTag, algorithm: 13, flags: 257, sep: true, revoked: false, bits: 256, status: 'trusted' },
    ]);
    expect(zone.dnskeySignatures).toEqual([
      {
        keyTag: zone.ds[0].keyTag,
        algorithm: 13,
        inception: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        expiration: expect.any(String),
        status: 'valid',
      },
    ]);
    expect(data.answer).toEqual({
      name: Z.secure,
      type: 'A',
      rcode: 'NOERROR',
      records: [`${Z.secure}. 300 IN A 192.0.2.1`],
      signatures: [expect.objectContaining({ signer: Z.secure, keyTag: zone.ds[0].keyTag, status: 'valid' })],
      status: 'secure',
      denial: null,
    });
    // DS and DNSKEY of every name and the question itself, asked at once
    expect(data.questions).toBe(6);
    expect(data.verification.signaturesVerified).toBeGreaterThanOrEqual(6);
    expect(data.verification.cpuMs).toBeGreaterThan(0);
  });

  it('reports the signature that broke: an expired DNSKEY signature reads expired, the key stays trusted', async () => {
    const data = await chain(Z.expired);
    const zone = data.chain[2];
    expect(zone.dnskeys[0].status).toBe('trusted');
    expect(zone.dnskeySignatures[0].status).toBe('expired');
    expect(data.answer.signatures[0]).toMatchObject({ status: 'expired' });
    const badsig = await chain(Z.tampered);
    expect(badsig.chain[2].dnskeySignatures[0].status).toBe('invalid-signature');
    const digest = await chain(Z.digestMismatch);
    expect(digest.chain[2].ds[0].status).toBe('invalid-digest');
    const nokey = await chain(Z.unpublishedKey);
    expect(nokey.chain[2].ds[0].status).toBe('no-matching-dnskey');
    expect(nokey.chain[2].dnskeys[0].status).toBe('unused');
    const unknown = await chain(Z.unknownAlgorithm);
    expect(unknown.chain[2].ds[0].status).toBe('unsupported');
  });

  const verdictOfDnssecTest: Record<string, string> = {
    enabled: 'secure',
    insecure: 'insecure',
    disabled: 'insecure',
    bogus: 'bogus',
  };
  const agreeing = [
    ...Object.values(Z).filter((z) => z !== Z.lame),
    `b.${Z.denialMissing}`,
    `b.${Z.denialInvalid}`,
    `nothing.${Z.secure}`,
  ];

  it.each(agreeing)('agrees with dnssec-test (the validating resolver) on %s', async (name) => {
    const test = await (await t.get(`/api/v1/dnssec-test?domain=${name}`)).json();
    // dnssec-test asks for the DNSKEY set at the name: ask the chain the same question
    const data = await chain(name, 'DNSKEY');
    expect(data.status).toBe(verdictOfDnssecTest[test.data.status]);
  });

  it('answers through GraphQL, codes as enum values', async () => {
    const res = await graphql(
      t,
      `{ a: dnssecChain(domain: "${Z.expired}") { status brokenLink { zone code } chain { zone status } }
         b: dnssecChain(domain: "nothing.${Z.nsec3}", type: "AAAA") { status answer { rcode denial { kind status optOut } } } }`,
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      a: {
        status: 'bogus',
        brokenLink: { zone: Z.expired, code: 'RRSIG_EXPIRED' },
        chain: [
          { zone: '.', status: 'secure' },
          { zone: 'lab', status: 'secure' },
          { zone: Z.expired, status: 'bogus' },
        ],
      },
      b: { status: 'secure', answer: { rcode: 'NXDOMAIN', denial: { kind: 'nsec3', status: 'valid', optOut: false } } },
    });
  });

  it('mailhealth-check: the DANE finding of bogus TLSA records names the broken link', async () => {
    const ctx = createCheckContext(t.services, AbortSignal.timeout(10_000));
    const facts = await daneFacts(ctx, [`mail.${Z.expired}`]);
    expect(facts[0]).toMatchObject({
      host: `mail.${Z.expired}`,
      result: { dnssec: 'bogus', brokenLink: { zone: Z.expired, code: 'RRSIG_EXPIRED' } },
    });
    const [finding] = daneFindings(facts, { nullMx: false, hostCount: 1, smtpProbes: true });
    expect(finding).toMatchObject({
      status: 'critical',
      summary: expect.stringContaining(`the chain of trust breaks at ${Z.expired}: RRSIG_EXPIRED`),
    });
  });

  it('website-health-check: a name that fails to resolve because it is bogus names the broken link', async () => {
    const res = await t.get(`/api/v1/website-health-check?target=${Z.tampered}`);
    expect(res.status).toBe(502);
    expect((await res.json()).error).toMatch(
      new RegExp(`SERVFAIL.*the chain of trust breaks at ${Z.tampered.replace('.', '\\.')}: RRSIG_INVALID`),
    );
  });

  it('rejects a type outside the contract with a 400, asking nothing', async () => {
    const res = await t.get(`/api/v1/dnssec-chain?domain=${Z.secure}&type=PTR`);
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/^type: expected one of A, AAAA/);
  });
});
