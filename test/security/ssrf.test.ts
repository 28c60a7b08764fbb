/**
 * Threat: a caller makes the service connect to something inside its own network (SSRF). Every check that
 * connects to a caller's target is asked for the loopback address 127.0.0.1 in every spelling a parser might
 * read differently, for a name whose DNS answer flips to it, and through a redirect. A listener on the
 * forbidden address counts connections: the assertion is that it never sees one (docs/getting-started.md "Target rules": the
 * target guard resolves once, checks every address, and connects to the address it checked).
 *
 * `targets.allow` is used only to let 127.0.0.2 play a public host; 127.0.0.1 stays forbidden throughout.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, graphql, type TestApp } from '../helpers/app.js';
import { rr, startDnsLab, type DnsLab } from '../lab/dns-server.js';

const FORBIDDEN = '127.0.0.1';
const PLAYS_PUBLIC = '127.0.0.2';

interface CountingListener {
  readonly connections: () => number;
  close(): Promise<void>;
}

/** A listener that answers HTTP (a redirect or a page) and counts every connection it accepts. */
async function listen(host: string, port: number, respond: (path: string) => string): Promise<CountingListener> {
  let connections = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    socket.once('data', (chunk) => {
      const path = /^[A-Z]+ (\S+)/.exec(chunk.toString('latin1'))?.[1] ?? '/';
      socket.end(respond(path));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return {
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

let port: number;
let forbidden: CountingListener;
let publicHost: CountingListener;
let lab: DnsLab;
let t: TestApp;

beforeAll(async () => {
  // the same port on both addresses, so that only the address decides where a connection lands
  port = await new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, PLAYS_PUBLIC, () => {
      resolve((probe.address() as AddressInfo).port);
      probe.close();
    });
  });
  publicHost = await listen(PLAYS_PUBLIC, port, (path) =>
    path === '/redirect'
      ? `HTTP/1.1 302 Found\r\nLocation: http://${FORBIDDEN}:${port}/inside\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`
      : 'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 13\r\nConnection: close\r\n\r\n<html></html>',
  );
  forbidden = await listen(
    FORBIDDEN,
    port,
    () => 'HTTP/1.1 200 OK\r\nContent-Length: 6\r\nConnection: close\r\n\r\nsecret',
  );
  lab = await startDnsLab({
    authoritative: false,
    records: [
      rr.a('localhost', FORBIDDEN),
      rr.a('inside.attacker.test', FORBIDDEN),
      rr.a('public.attacker.test', PLAYS_PUBLIC),
    ],
  });
  t = await createTestApp({
    dns: { system: [`127.0.0.1:${lab.port}`], timeoutMs: 1000 },
    targets: { allow: [`${PLAYS_PUBLIC}/32`] },
    http: { timeoutMs: 3000 },
    tcp: { connectTimeoutMs: 1000 },
    tls: { handshakeTimeoutMs: 1000 },
  });
});

afterAll(async () => {
  await t?.close();
  await lab?.close();
  await forbidden?.close();
  await publicHost?.close();
});

beforeEach(() => {
  t.services.dnsCache.clear();
});

/** Host spellings that all mean 127.0.0.1 (RFC 6890 loopback), some only to a lenient parser. */
const HOST_FORMS = [
  '127.0.0.1',
  '2130706433', // decimal
  '0x7f000001', // hex
  '0177.0.0.1', // octal
  '127.1', // short form
  '0x7f.1',
  '127.0.0.1.', // trailing dot
  '::ffff:127.0.0.1', // IPv4-mapped
  '::ffff:7f00:1',
  '64:ff9b::7f00:1', // NAT64 (RFC 6052)
  '2002:7f00:1::1', // 6to4 (RFC 3056)
  '2001:0:4136:e378:8000:63bf:80ff:fffe', // Teredo, client 127.0.0.1 (RFC 4380: bits inverted)
  'localhost',
  'localhost.',
  'inside.attacker.test',
  'INSIDE.Attacker.Test.',
  '１２７.０.０.１', // full-width digits: IDNA maps them to 127.0.0.1
];

const inUrl = (host: string) => (host.includes(':') ? `[${host}]` : host);

/** Every connection check, given a host (and the listeners' port where it takes one). */
const CONNECTION_CHECKS: Record<string, (host: string) => Promise<number>> = {
  'port-checker': async (host) =>
    (await t.get(`/api/v1/port-checker?host=${encodeURIComponent(host)}&port=${port}`)).status,
  'ssl-checker': async (host) => {
    const { body } = await graphql(t, 'query ($d: String!, $p: Int) { sslChecker(domain: $d, port: $p) { status } }', {
      d: host,
      p: port,
    });
    return body.errors?.[0]?.extensions?.status ?? 200;
  },
  'tls-configuration': async (host) =>
    (await t.get(`/api/v1/tls-configuration?domain=${encodeURIComponent(`https://${inUrl(host)}:${port}/`)}`)).status,
  'http-headers': async (host) =>
    (await t.get(`/api/v1/http-headers?url=${encodeURIComponent(`http://${inUrl(host)}:${port}/`)}`)).status,
  'open-graph-checker': async (host) =>
    (await t.get(`/api/v1/open-graph-checker?url=${encodeURIComponent(`http://${inUrl(host)}:${port}/`)}`)).status,
  'website-health-check': async (host) =>
    (await t.get(`/api/v1/website-health-check?target=${encodeURIComponent(`http://${inUrl(host)}:${port}/`)}`)).status,
  ping: async (host) => (await t.get(`/api/v1/ping?host=${encodeURIComponent(host)}`)).status,
};

describe('SSRF: no connection check reaches a loopback listener', () => {
  for (const [check, run] of Object.entries(CONNECTION_CHECKS)) {
    it(`${check}: every spelling of 127.0.0.1 is refused (400) without a connection`, async () => {
      const before = forbidden.connections();
      const statuses: Record<string, number> = {};
      for (const host of HOST_FORMS) statuses[host] = await run(host);
      expect(forbidden.connections() - before).toBe(0);
      // a spelling the validation cannot read at all is a 400 too: nothing answers 2xx or 5xx
      expect(Object.entries(statuses).filter(([, s]) => s !== 400)).toEqual([]);
    });
  }

  it('connects to the address that was checked when the name flips to loopback after the first answer (DNS rebinding)', async () => {
    const name = 'rebind.attacker.test';
    const answer = (address: string) => {
      lab.records = lab.records.filter((r) => r.name !== name).concat(rr.a(name, address, 0));
    };
    const push = lab.queries.push.bind(lab.queries);
    // the lab answers right after recording a question: flip once the first A answer has gone out, so
    // any second question of the same request would get the loopback address
    lab.queries.push = (...questions) => {
      const n = push(...questions);
      if (questions.some((q) => q.name === name && q.type === 'A')) setImmediate(() => answer(FORBIDDEN));
      return n;
    };
    try {
      const before = { forbidden: forbidden.connections(), public: publicHost.connections() };
      answer(PLAYS_PUBLIC);
      const ports = await t.get(`/api/v1/port-checker?host=${name}&port=${port}`);
      expect((await ports.json()).data).toMatchObject({ status: 'open' });
      answer(PLAYS_PUBLIC);
      const headers = await t.get(`/api/v1/http-headers?url=${encodeURIComponent(`http://${name}:${port}/`)}`);
      expect(headers.status).toBe(200);
      expect(publicHost.connections() - before.public).toBe(2);
      expect(forbidden.connections() - before.forbidden).toBe(0);
      // the next request resolves anew, sees the loopback answer, and is refused
      expect((await t.get(`/api/v1/port-checker?host=${name}&port=${port}`)).status).toBe(400);
      expect(forbidden.connections() - before.forbidden).toBe(0);
    } finally {
      lab.queries.push = push;
    }
  });

  it('refuses a redirect hop to a loopback address without connecting to it', async () => {
    const before = forbidden.connections();
    const res = await t.get(
      `/api/v1/http-headers?url=${encodeURIComponent(`http://public.attacker.test:${port}/redirect`)}`,
    );
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/127\.0\.0\.1.*loopback/);
    expect(forbidden.connections() - before).toBe(0);
  });
});
