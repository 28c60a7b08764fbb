/** The SMTP probe against the loopback SMTP lab: every behaviour of test/lab/smtp-server.ts. */
import { afterEach, describe, expect, it } from 'vitest';
import { ProbeError } from '../../../../src/probes/errors.js';
import { smtpSession, SmtpProbeError, type SmtpSessionOptions } from '../../../../src/probes/smtp/session.js';
import { LAB_HOST, labPki } from '../../../lab/pki.js';
import { startSmtpServer, type LabSmtpServer, type SmtpBehaviour } from '../../../lab/smtp-server.js';

const servers: LabSmtpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function server(behaviour: SmtpBehaviour, which: 'good' | 'expired' = 'good'): Promise<LabSmtpServer> {
  const pki = await labPki();
  const s = await startSmtpServer({ behaviour, tls: { cert: pki[which].chain, key: pki[which].key } });
  servers.push(s);
  return s;
}

async function options(s: LabSmtpServer, extra: Partial<SmtpSessionOptions> = {}): Promise<SmtpSessionOptions> {
  return {
    ip: s.host,
    port: s.port,
    servername: LAB_HOST,
    heloName: 'probe.netdiag.test',
    starttls: true,
    connectTimeoutMs: 2000,
    replyTimeoutMs: 2000,
    handshakeTimeoutMs: 2000,
    sessionTimeoutMs: 5000,
    ca: (await labPki()).root.cert,
    ...extra,
  };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
}

describe('smtpSession', () => {
  it('greets, says EHLO, upgrades with STARTTLS and SNI, and says nothing else', async () => {
    const s = await server('starttls');
    const result = await smtpSession(await options(s));
    expect(result.greeting).toEqual({ code: 220, lines: ['mx.lab.test ESMTP lab'] });
    expect(result.extensions).toEqual(['SIZE 10240000', '8BITMIME', 'STARTTLS', 'SMTPUTF8']);
    expect(result.starttlsOffered).toBe(true);
    expect(result.starttls?.error).toBeNull();
    expect(result.starttls?.reply?.code).toBe(220);
    const handshake = result.starttls?.handshake;
    expect(handshake?.authorized).toBe(true);
    expect(handshake?.sniSent).toBe(true);
    expect(handshake?.peerChain[0]?.subject.CN).toBe(LAB_HOST);
    // QUIT inside TLS, and nothing else, ever
    await expect.poll(() => s.commands).toEqual(['EHLO probe.netdiag.test', 'STARTTLS', 'QUIT']);
    await expect.poll(() => s.openConnections()).toBe(0);
  });

  it('says QUIT after EHLO when STARTTLS is not offered', async () => {
    const s = await server('plain');
    const result = await smtpSession(await options(s));
    expect(result.starttlsOffered).toBe(false);
    expect(result.starttls).toBeNull();
    await expect.poll(() => s.commands).toEqual(['EHLO probe.netdiag.test', 'QUIT']);
  });

  it('reports a refused STARTTLS and a handshake that fails as outcomes, not errors', async () => {
    const refused = await smtpSession(await options(await server('refuse-tls')));
    expect(refused.starttls).toMatchObject({
      handshake: null,
      error: 'STARTTLS was refused: 454 4.7.0 TLS not available due to temporary reason',
    });
    const broken = await smtpSession(await options(await server('tls-broken')));
    expect(broken.starttls?.handshake).toBeNull();
    expect(broken.starttls?.error).toMatch(/TLS handshake with 127\.0\.0\.1:\d+ failed/);
  });

  it('completes the handshake with an expired certificate and leaves the verdict to the check', async () => {
    const result = await smtpSession(await options(await server('starttls', 'expired')));
    expect(result.starttls?.handshake?.authorizationError).toBe('CERT_HAS_EXPIRED');
  });

  it('refuses a 554 greeting with the reply in the error', async () => {
    const e = await rejection(smtpSession(await options(await server('greet-554'))));
    expect(e).toBeInstanceOf(SmtpProbeError);
    expect(e).toMatchObject({ stage: 'greeting', reply: { code: 554 } });
    expect((e as Error).message).toMatch(/refused the session in its greeting: 554 5\.7\.1 lab: no SMTP service/);
  });

  it('cuts an endless greeting at the line cap', async () => {
    const e = await rejection(smtpSession(await options(await server('endless'))));
    expect(e).toBeInstanceOf(ProbeError);
    expect((e as ProbeError).kind).toBe('MALFORMED');
    expect((e as Error).message).toMatch(/a reply line longer than 4096 bytes/);
  });

  it('cuts off a server that floods replies nobody asked for', async () => {
    const e = await rejection(smtpSession(await options(await server('flood'))));
    expect(e).toMatchObject({ kind: 'MALFORMED' });
    expect((e as Error).message).toMatch(/sent replies to commands it was not sent/);
  });

  it('gives up on a silent server after the reply bound, and closes its socket', async () => {
    const s = await server('silent');
    const e = await rejection(smtpSession(await options(s, { replyTimeoutMs: 200 })));
    expect(e).toMatchObject({ kind: 'TIMEOUT', stage: 'greeting' });
    await expect.poll(() => s.openConnections()).toBe(0);
  });

  it('is refused on a closed port, and stops when the request ends', async () => {
    const s = await server('silent');
    const port = s.port;
    await s.close();
    servers.length = 0;
    const refused = await rejection(smtpSession({ ...(await options(s)), port }));
    expect(refused).toMatchObject({ kind: 'REFUSED', stage: 'connect' });
    const silent = await server('silent');
    const controller = new AbortController();
    const pending = smtpSession(await options(silent, { signal: controller.signal }));
    await expect.poll(() => silent.connections()).toBe(1);
    controller.abort();
    expect(await rejection(pending)).toMatchObject({ kind: 'ABORTED' });
  });

  it('runs the guard re-check on the remote address before reading a byte', async () => {
    const s = await server('starttls');
    const e = await rejection(
      smtpSession(
        await options(s, {
          assertRemote: () => {
            throw new Error('refused by the guard');
          },
        }),
      ),
    );
    expect((e as Error).message).toBe('refused by the guard');
    expect(s.commands).toEqual([]);
  });
});
