/**
 * dane end to end against real DNSSEC: the TLSA records live in zones signed at test time and are
 * validated by unbound (test/lab/dnssec-lab.ts), the chain comes from the loopback SMTP lab over
 * STARTTLS. Every verdict of dane.ts from one SMTP server and MX names in differently signed zones.
 */
import { createHash, X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, graphql, type TestApp } from '../../../../test/helpers/app.js';
import { startDnssecLab, type DnssecLab } from '../../../../test/lab/dnssec-lab.js';
import { labPki } from '../../../../test/lab/pki.js';
import { startSmtpServer, type LabSmtpServer } from '../../../../test/lab/smtp-server.js';
import { missingDnssecPrograms } from '../../../../test/lab/unbound.js';

const missing = missingDnssecPrograms();

/** The DER certificates of a PEM bundle, in order. */
function ders(pem: string): Buffer[] {
  return (pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []).map(
    (block) => new X509Certificate(block).raw,
  );
}
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const spki = (der: Buffer) => new X509Certificate(der).publicKey.export({ type: 'spki', format: 'der' });

describe.skipIf(missing.length > 0)('dane against a validating unbound', () => {
  let lab: DnssecLab;
  let smtp: LabSmtpServer;
  let t: TestApp;
  let leafSpkiSha256: string;
  let intermediateSha256: string;

  beforeAll(async () => {
    const pki = await labPki();
    smtp = await startSmtpServer({ behaviour: 'starttls', tls: { cert: pki.good.chain, key: pki.good.key } });
    const [leaf, intermediate] = ders(pki.good.chain);
    leafSpkiSha256 = sha256(spki(leaf!));
    intermediateSha256 = sha256(intermediate!);
    const owner = (host: string) => `_${smtp.port}._tcp.${host}`;
    lab = await startDnssecLab({
      extraLines: {
        enabled: [
          ...['mx', 'ta', 'bad', 'pkix', 'none'].map((h) => `${h} IN A 127.0.0.1`),
          `${owner('mx')} IN TLSA 3 1 1 ${leafSpkiSha256}`,
          `${owner('ta')} IN TLSA 2 0 1 ${intermediateSha256}`,
          `${owner('bad')} IN TLSA 3 1 1 ${'00'.repeat(32)}`,
          `${owner('pkix')} IN TLSA 1 1 1 ${leafSpkiSha256}`,
        ],
        insecure: ['mx IN A 127.0.0.1', `${owner('mx')} IN TLSA 3 1 1 ${leafSpkiSha256}`],
        bogusExpired: ['mx IN A 127.0.0.1', `${owner('mx')} IN TLSA 3 1 1 ${leafSpkiSha256}`],
      },
    });
    t = await createTestApp(
      {
        dns: { system: [`${lab.resolver.host}:${lab.resolver.port}`], timeoutMs: 3000 },
        targets: { allow: ['127.0.0.0/8'] },
      },
      { connections: { tlsCa: pki.root.cert, connectTimeoutMs: 1000, handshakeTimeoutMs: 1000 }, smtpPort: smtp.port },
    );
  }, 30_000);
  afterAll(async () => {
    await t?.close();
    await lab?.close();
    await smtp?.close();
  });

  const dane = async (host: string) => {
    const res = await t.get(`/api/v1/dane?host=${host}&port=${smtp.port}`);
    const body = await res.json();
    if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(body)}\n${lab.logs()}`);
    return body;
  };

  it('valid: a secure DANE-EE record matching the leaf key, in the v1 envelope', async () => {
    expect(await dane('mx.secure.lab')).toEqual({
      ok: true,
      data: {
        host: 'mx.secure.lab',
        port: smtp.port,
        name: `_${smtp.port}._tcp.mx.secure.lab`,
        tlsa: [{ usage: 3, selector: 1, matchingType: 1, data: leafSpkiSha256, matches: true }],
        dnssec: 'secure',
        status: 'valid',
        error: null,
      },
      meta: { tool: 'dane', version: 'v1' },
    });
  });

  it('valid through a DANE-TA record matching the intermediate; mismatch when nothing matches', async () => {
    expect((await dane('ta.secure.lab')).data).toMatchObject({
      status: 'valid',
      tlsa: [{ usage: 2, selector: 0, matches: true }],
    });
    expect((await dane('bad.secure.lab')).data).toMatchObject({
      dnssec: 'secure',
      status: 'mismatch',
      tlsa: [{ matches: false }],
    });
  });

  it('unusable: a secure PKIX-EE record matches but SMTP ignores that usage (RFC 7672 §3.1.3)', async () => {
    expect((await dane('pkix.secure.lab')).data).toMatchObject({
      status: 'unusable',
      tlsa: [{ usage: 1, matches: true }],
    });
  });

  it('insecure without a DS, error when bogus, no-tlsa without records (and then no connection)', async () => {
    expect((await dane('mx.island.lab')).data).toMatchObject({ dnssec: 'insecure', status: 'insecure' });
    const bogus = (await dane('mx.expired.lab')).data;
    expect(bogus).toMatchObject({ dnssec: 'bogus', status: 'error' });
    expect(bogus.error).toMatch(/do not validate/);
    const before = smtp.connections();
    expect((await dane('none.secure.lab')).data).toMatchObject({ tlsa: [], dnssec: 'secure', status: 'no-tlsa' });
    expect(smtp.connections()).toBe(before);
  });

  it('shares one SMTP session with smtp-starttls in one GraphQL operation', async () => {
    const before = smtp.connections();
    const { status, body } = await graphql(
      t,
      `{ dane(host: "mx.secure.lab", port: ${smtp.port}) { status }
         smtpStarttls(host: "mx.secure.lab", port: ${smtp.port}) { starttls tls { version } } }`,
    );
    expect(status).toBe(200);
    expect(body.data).toEqual({
      dane: { status: 'valid' },
      smtpStarttls: { starttls: 'offered', tls: { version: 'TLSv1.3' } },
    });
    expect(smtp.connections()).toBe(before + 1);
  });

  it('with SMTP probes turned off: the records and their DNSSEC state, no match, no connection', async () => {
    const pki = await labPki();
    const off = await createTestApp(
      {
        dns: { system: [`${lab.resolver.host}:${lab.resolver.port}`], timeoutMs: 3000 },
        targets: { allow: ['127.0.0.0/8'] },
        smtp: { enabled: false },
      },
      { connections: { tlsCa: pki.root.cert }, smtpPort: smtp.port },
    );
    try {
      const before = smtp.connections();
      const body = await (await off.get(`/api/v1/dane?host=mx.secure.lab&port=${smtp.port}`)).json();
      expect(body.data).toMatchObject({
        dnssec: 'secure',
        status: 'error',
        error: 'no certificate chain to match: SMTP probes are turned off on this instance (smtp.enabled is false)',
        tlsa: [{ usage: 3, matches: false }],
      });
      expect(smtp.connections()).toBe(before);
    } finally {
      await off.close();
    }
  });

  it('refuses an IP literal or a bad host with 400', async () => {
    expect((await t.get('/api/v1/dane?host=127.0.0.1')).status).toBe(400);
    expect((await t.get('/api/v1/dane?host=bad_host')).status).toBe(400);
  });
});
