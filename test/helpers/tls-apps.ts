/**
 * The set-up shared by the connection-check integration tests (ssl-checker, tls-configuration,
 * port-checker): a loopback DNS lab as the system resolver, an app that admits loopback targets
 * (`targets.allow`), and one that does not (the production rule), both trusting the lab root
 * and with short connect/handshake bounds.
 */
import net, { type AddressInfo } from 'node:net';
import { rr, startDnsLab, type DnsLab } from '../lab/dns-server.js';
import { LAB_HOST, labPki } from '../lab/pki.js';
import { createTestApp, type TestApp } from './app.js';

/** A and AAAA */
export const DUAL_HOST = LAB_HOST;
/** A only */
export const V4_HOST = 'v4.lab.test';
/** AAAA only */
export const V6_HOST = 'v6.lab.test';
/** exists (it has a TXT record) but has no address */
export const NO_ADDRESS_HOST = 'noaddr.lab.test';

/** The connect and handshake bounds of the test apps: short, so that time-out tests stay fast. */
export const TEST_BOUND_MS = 1000;

export interface ConnectionTestApps {
  dns: DnsLab;
  /** loopback admitted */
  t: TestApp;
  /** no allow list: loopback refused, as in production */
  refusing: TestApp;
  close(): Promise<void>;
}

/** An app resolving through `dns`, trusting the lab root, with TEST_BOUND_MS bounds. */
export async function createConnectionTestApp(
  dns: DnsLab,
  options: { allowLoopback: boolean; config?: Record<string, unknown> },
): Promise<TestApp> {
  const pki = await labPki();
  return createTestApp(
    {
      dns: { system: [`127.0.0.1:${dns.port}`], timeoutMs: 500 },
      ...(options.allowLoopback ? { targets: { allow: ['127.0.0.0/8', '::1/128'] } } : {}),
      ...options.config,
    },
    { connections: { tlsCa: pki.root.cert, connectTimeoutMs: TEST_BOUND_MS, handshakeTimeoutMs: TEST_BOUND_MS } },
  );
}

export async function startConnectionTestApps(): Promise<ConnectionTestApps> {
  const dns = await startDnsLab({
    authoritative: false,
    records: [
      rr.a(DUAL_HOST, '127.0.0.1'),
      rr.aaaa(DUAL_HOST, '::1'),
      rr.a(V4_HOST, '127.0.0.1'),
      rr.aaaa(V6_HOST, '::1'),
      rr.txt(NO_ADDRESS_HOST, 'no address here'),
    ],
  });
  const t = await createConnectionTestApp(dns, { allowLoopback: true });
  const refusing = await createConnectionTestApp(dns, { allowLoopback: false });
  return {
    dns,
    t,
    refusing,
    close: async () => {
      await t.close();
      await refusing.close();
      await dns.close();
    },
  };
}

/** Binds `port` on `host` and releases it: true when a lab server may listen there (e.g. 443 needs privileges). */
export async function canListen(host: string, port: number): Promise<boolean> {
  const server = net.createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, host, () => {
      const bound = (server.address() as AddressInfo).port === port;
      server.close(() => resolve(bound));
    });
  });
}
