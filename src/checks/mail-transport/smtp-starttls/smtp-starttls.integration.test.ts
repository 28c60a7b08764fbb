/**
 * smtp-starttls end to end (REST, GraphQL, a real listening socket) against the loopback SMTP lab:
 * one server per behaviour, the lab DNS as the system resolver, the lab root as trust anchor.
 */
import { execFile } from 'node:child_process';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer } from '../../../http-server.js';
import { graphql, TEST_KEY, type TestApp } from '../../../../test/helpers/app.js';
import { createConnectionTestApp } from '../../../../test/helpers/tls-apps.js';
import { rr, startDnsLab, type DnsLab } from '../../../../test/lab/dns-server.js';
import { labPki, WRONG_HOST } from '../../../../test/lab/pki.js';
import { startSmtpServer, type LabSmtpServer, type SmtpBehaviour } from '../../../../test/lab/smtp-server.js';

let dns: DnsLab;
let t: TestApp;
let refusing: TestApp;
const labs: Record<string, LabSmtpServer> = {};

beforeAll(async () => {
  const pki = await labPki();
  const make = (behaviour: SmtpBehaviour, leaf = pki.good) =>
    startSmtpServer({ behaviour, tls: { cert: leaf.chain, key: leaf.key } });
  const entries = await Promise.all(
    (
      [
        ['good', make('starttls')],
        ['plain', make('plain')],
        ['broken', make('tls-broken')],
        ['expired', make('starttls', pki.expired)],
        ['wrong', make('starttls', pki.wrongHost)],
        ['greet554', make('greet-554')],
        ['endless', make('endless')],
      ] as const
    ).map(async ([name, server]) => [name, await server] as const),
  );
  for (const [name, server] of entries) labs[name] = server;
  dns = await startDnsLab({ authoritative: false, records: [rr.a('mx.lab.test', '127.0.0.1')] });
  t = await createConnectionTestApp(dns, { allowLoopback: true });
  refusing = await createConnectionTestApp(dns, { allowLoopback: false });
});

afterAll(async () => {
  await Promise.all([t.close(), refusing.close(), dns.close(), ...Object.values(labs).map((s) => s.close())]);
});

async function starttls(lab: string, host = 'mx.lab.test') {
  const res = await t.get(`/api/v1/smtp-starttls?host=${host}&port=${labs[lab]!.port}`);
  return { status: res.status, body: await res.json() };
}

describe('smtp-starttls', () => {
  it('answers ok for STARTTLS with a valid certificate, in the v1 envelope, for 3 credits', async () => {
    const res = await t.get(`/api/v1/smtp-starttls?host=MX.lab.test.&port=${labs.good!.port}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-remaining')).toBe(String(300 - 3));
    const body = await res.json();
    expect(body).toMatchObject({ ok: true, meta: { tool: 'smtp-starttls', version: 'v1' } });
    expect(body.data).toEqual({
      host: 'mx.lab.test',
      ip: '127.0.0.1',
      port: labs.good!.port,
      banner: 'mx.lab.test ESMTP lab',
      ehlo: ['SIZE 10240000', '8BITMIME', 'STARTTLS', 'SMTPUTF8'],
      starttls: 'offered',
      tls: {
        version: 'TLSv1.3',
        cipher: expect.any(String),
        certificate: {
          subject: 'good.lab.test',
          issuer: expect.stringContaining('Intermediate'),
          validTo: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          daysRemaining: expect.any(Number),
          status: 'valid',
        },
      },
      status: 'ok',
      error: null,
      responseTimeMs: expect.any(Number),
    });
    expect(body.data.tls.certificate.daysRemaining).toBeGreaterThan(80);
  });

  it('agrees with openssl s_client -starttls smtp on the version and cipher', async () => {
    const { body } = await starttls('good');
    const output = await new Promise<string>((resolve, reject) => {
      const child = execFile(
        'openssl',
        [
          's_client',
          '-starttls',
          'smtp',
          '-connect',
          `127.0.0.1:${labs.good!.port}`,
          '-servername',
          'mx.lab.test',
          '-brief',
        ],
        { timeout: 10_000 },
        (error, stdout, stderr) => (error && !stderr ? reject(error) : resolve(`${stdout}${stderr}`)),
      );
      child.stdin?.end();
    });
    expect(output).toContain(`Protocol version: ${body.data.tls.version}`);
    expect(output).toContain(`Ciphersuite: ${body.data.tls.cipher}`);
  });

  it('tells no STARTTLS, a failed handshake and certificate problems apart', async () => {
    const plain = await starttls('plain');
    expect(plain.body.data).toMatchObject({ starttls: 'not-offered', tls: null, status: 'no-starttls', error: null });
    await expect.poll(() => labs.plain!.commands.at(-1)).toBe('QUIT');

    const broken = await starttls('broken');
    expect(broken.body.data).toMatchObject({ starttls: 'offered', tls: null, status: 'tls-failed' });
    expect(broken.body.data.error).toMatch(/TLS handshake with 127\.0\.0\.1:\d+ failed/);

    const expired = await starttls('expired');
    expect(expired.body.data).toMatchObject({
      status: 'certificate-problem',
      tls: { certificate: { status: 'expired' } },
    });
    expect(expired.body.data.tls.certificate.daysRemaining).toBeLessThan(0);

    const wrong = await starttls('wrong');
    expect(wrong.body.data).toMatchObject({
      status: 'certificate-problem',
      tls: { certificate: { subject: WRONG_HOST, status: 'hostname-mismatch' } },
    });
  });

  it('reports a 554 greeting, an endless reply and a closed port as unreachable findings (200)', async () => {
    const greet = await starttls('greet554');
    expect(greet.status).toBe(200);
    expect(greet.body.data).toMatchObject({ status: 'unreachable', banner: '', ehlo: [], tls: null });
    expect(greet.body.data.error).toMatch(/refused the session in its greeting: 554 5\.7\.1 lab: no SMTP service/);

    const endless = await starttls('endless');
    expect(endless.body.data.status).toBe('unreachable');
    expect(endless.body.data.error).toMatch(/a reply line longer than 4096 bytes/);

    const closed = await t.get('/api/v1/smtp-starttls?host=127.0.0.1&port=9');
    expect(closed.status).toBe(200);
    expect((await closed.json()).data).toMatchObject({
      host: '127.0.0.1',
      status: 'unreachable',
      error: expect.stringMatching(/ECONNREFUSED/),
    });
  });

  it('refuses bad input with 400 and a loopback target without the allow list, connecting to nothing', async () => {
    expect((await t.get('/api/v1/smtp-starttls?host=not_a_host')).status).toBe(400);
    const badPort = await t.get('/api/v1/smtp-starttls?host=mx.lab.test&port=70000');
    expect(badPort.status).toBe(400);
    expect((await badPort.json()).error).toMatch(/port/);
    const before = labs.good!.connections();
    const refused = await refusing.get(`/api/v1/smtp-starttls?host=mx.lab.test&port=${labs.good!.port}`);
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toMatch(
      /loopback address; checks of private or internal addresses are refused/,
    );
    expect(labs.good!.connections()).toBe(before);
  });

  it('answers 503 naming smtp.enabled when SMTP probes are turned off, and connects to nothing', async () => {
    const off = await createConnectionTestApp(dns, { allowLoopback: true, config: { smtp: { enabled: false } } });
    try {
      const before = labs.good!.connections();
      const res = await off.get(`/api/v1/smtp-starttls?host=mx.lab.test&port=${labs.good!.port}`);
      expect(res.status).toBe(503);
      expect((await res.json()).error).toBe('SMTP probes are turned off on this instance (smtp.enabled is false)');
      expect(labs.good!.connections()).toBe(before);
    } finally {
      await off.close();
    }
  });

  it('composes in GraphQL: one session serves two selections, and a failing field costs the others nothing', async () => {
    const before = labs.good!.connections();
    const { status, body } = await graphql(
      t,
      `{ a: smtpStarttls(host: "mx.lab.test", port: ${labs.good!.port}) { status }
         b: smtpStarttls(host: "mx.lab.test", port: ${labs.good!.port}) { starttls tls { version } }
         c: smtpStarttls(host: "nothing.lab.test") { status } }`,
    );
    expect(status).toBe(200);
    expect(body.data.a).toEqual({ status: 'ok' });
    expect(body.data.b).toEqual({ starttls: 'offered', tls: { version: 'TLSv1.3' } });
    expect(body.data.c).toBeNull();
    expect(body.errors).toHaveLength(1);
    expect(labs.good!.connections()).toBe(before + 1);
  });

  it('answers over a real listening socket', async () => {
    const server: Server = createHttpServer(t.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(
        `http://127.0.0.1:${port}/api/v1/smtp-starttls?host=mx.lab.test&port=${labs.plain!.port}`,
        {
          headers: { 'x-api-key': TEST_KEY },
        },
      );
      expect(res.status).toBe(200);
      expect((await res.json()).data.status).toBe('no-starttls');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
