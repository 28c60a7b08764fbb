import { afterEach, describe, expect, it } from 'vitest';
import { sslCheckerData } from '../shared/certificate.js';
import { tlsHandshake } from '../../../probes/tls/prober.js';
import { LAB_HOST, labPki, type LabLeaf } from '../../../../test/lab/pki.js';
import { startTlsServer } from '../../../../test/lab/tls-server.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** ssl-checker end to end against a lab server serving `leaf`, trusting the lab root unless told otherwise. */
async function check(leaf: LabLeaf, trustLabRoot = true) {
  const pki = await labPki();
  const server = await startTlsServer({ cert: leaf.chain, key: leaf.key });
  cleanups.push(() => server.close());
  const handshake = await tlsHandshake({
    ip: '127.0.0.1',
    port: server.port,
    servername: LAB_HOST,
    timeoutMs: 2000,
    ...(trustLabRoot ? { ca: pki.root.cert } : {}),
  });
  return sslCheckerData(LAB_HOST, handshake, new Date());
}

describe('ssl-checker statuses over the wire', () => {
  it('valid: trusted chain, matching name, in date', async () => {
    const data = await check((await labPki()).good);
    expect(data.status).toBe('valid');
    expect(data.signatureAlgorithm).toBe('ecdsa-with-SHA256');
    expect(data.subjectAlternativeNames).toEqual([LAB_HOST, '*.lab.test', '127.0.0.1', '::1']);
    expect(data.daysRemaining).toBe(89);
    expect(data.chain.map((c) => c.commonName)).toEqual([
      LAB_HOST,
      'Netdiag Lab Intermediate CA',
      'Netdiag Lab Root CA',
    ]);
  });

  it('expired', async () => {
    const data = await check((await labPki()).expired);
    expect(data.status).toBe('expired');
    expect(data.daysRemaining).toBeLessThan(0);
  });

  it('not-yet-valid', async () => {
    expect((await check((await labPki()).notYetValid)).status).toBe('not-yet-valid');
  });

  it('hostname-mismatch', async () => {
    const data = await check((await labPki()).wrongHost);
    expect(data.status).toBe('hostname-mismatch');
    expect(data.commonName).toBe('other.example.test');
  });

  it('untrusted: a self-signed RSA certificate', async () => {
    const data = await check((await labPki()).selfSigned);
    expect(data.status).toBe('untrusted');
    expect(data.signatureAlgorithm).toBe('sha256WithRSAEncryption');
    expect(data.chain).toHaveLength(1);
    expect(data.issuer).toBe(LAB_HOST);
  });

  it('untrusted: a chain to a root the trust store does not hold', async () => {
    const data = await check((await labPki()).good, false);
    expect(data.status).toBe('untrusted');
    expect(data.chain.map((c) => c.commonName)).toEqual([LAB_HOST, 'Netdiag Lab Intermediate CA']);
  });
});
