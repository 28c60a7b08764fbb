import dgram from 'node:dgram';
import dns from 'node:dns';
import { createHook } from 'node:async_hooks';
import { getEventListeners } from 'node:events';
import dnsPacket from 'dns-packet';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ProbeError } from '../../../../src/probes/errors.js';
import { createDnsClient, systemResolvers } from '../../../../src/probes/dns/client.js';
import type { DnsQuery } from '../../../../src/probes/dns/client.js';
import { rr, startDnsLab } from '../../../lab/dns-server.js';
import type { DnsLab } from '../../../lab/dns-server.js';

/** Whether ::1 can be bound here: the IPv6 test is skipped (and says so) only when it cannot. */
const ipv6 = await new Promise<boolean>((resolve) => {
  const s = dgram.createSocket('udp6');
  s.once('error', () => resolve(false));
  s.bind(0, '::1', () => s.close(() => resolve(true)));
});

const TIMEOUT_MS = 400;
let lab: DnsLab;
const client = createDnsClient({ timeoutMs: TIMEOUT_MS });
const question = (name: string, type: DnsQuery['type'] = 'A'): DnsQuery => ({ name, type, server: lab.address });

async function probeError(promise: Promise<unknown>): Promise<ProbeError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the question to fail');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProbeError);
  return error as ProbeError;
}

/** 60 TXT records of 100 bytes: about 7 KB, far over the 1232-byte UDP payload. */
const bigTxt = Array.from({ length: 60 }, (_, i) =>
  rr.txt('big.tcp.test', `${String(i).padStart(3, '0')}${'z'.repeat(97)}`),
);

beforeAll(async () => {
  lab = await startDnsLab({ records: [rr.a('tc.tcp.test', '192.0.2.20'), ...bigTxt] });
});
afterEach(() => {
  lab.clearBehaviours();
  lab.clearQueries();
  lab.flags.ad = false;
});
afterAll(() => lab.close());

describe('truncation and TCP (RFC 7766)', () => {
  it('a TC answer is asked again over TCP, and the TCP answer is the result', async () => {
    lab.setBehaviour('tc.tcp.test', { truncate: true });
    const r = await client.query(question('tc.tcp.test'));
    expect(r.transport).toBe('tcp');
    expect(r.truncated).toBe(false);
    expect(r.answers.map((a) => a.data)).toEqual(['192.0.2.20']);
    expect(lab.queries.map((q) => q.transport)).toEqual(['udp', 'tcp']);
  });

  it('an answer larger than the EDNS payload comes back truncated from the lab and whole over TCP', async () => {
    const r = await client.query(question('big.tcp.test', 'TXT'));
    expect(r.transport).toBe('tcp');
    expect(r.answers).toHaveLength(60);
    expect(new Set(r.answers.map((a) => (a.data as string).slice(0, 3))).size).toBe(60);
    expect(lab.countQueries('big.tcp.test', 'TXT', 'udp')).toBe(1);
    expect(lab.countQueries('big.tcp.test', 'TXT', 'tcp')).toBe(1);
  });

  it('a TCP answer with a failing rcode is that failure', async () => {
    lab.setBehaviour('tc.tcp.test', { truncate: true });
    lab.setBehaviour('tc.tcp.test', { servfail: true, transport: 'tcp' });
    expect((await probeError(client.query(question('tc.tcp.test')))).kind).toBe('SERVFAIL');
  });

  it('garbage over TCP is MALFORMED at once (no spoofing is possible there)', async () => {
    lab.setBehaviour('tc.tcp.test', { truncate: true });
    lab.setBehaviour('tc.tcp.test', { garbage: true, transport: 'tcp' });
    const started = performance.now();
    const e = await probeError(client.query(question('tc.tcp.test')));
    expect(e.kind).toBe('MALFORMED');
    expect(performance.now() - started).toBeLessThan(TIMEOUT_MS);
  });

  it('a wrong ID over TCP is MALFORMED', async () => {
    lab.setBehaviour('tc.tcp.test', { truncate: true });
    lab.setBehaviour('tc.tcp.test', { wrongId: true, transport: 'tcp' });
    const e = await probeError(client.query(question('tc.tcp.test')));
    expect(e.kind).toBe('MALFORMED');
    expect(e.message).toContain('another ID');
  });

  it('a TCP connection closed before the answer is UNREACHABLE', async () => {
    lab.setBehaviour('tc.tcp.test', { truncate: true });
    lab.setBehaviour('tc.tcp.test', { hangUp: true, transport: 'tcp' });
    const e = await probeError(client.query(question('tc.tcp.test')));
    expect(e.kind).toBe('UNREACHABLE');
    expect(e.message).toContain('closed the TCP connection');
  });

  it('a TCP answer that never comes ends with TIMEOUT within the one bound, UDP time included', async () => {
    lab.setBehaviour('tc.tcp.test', { truncate: true, delayMs: TIMEOUT_MS * 0.5 });
    lab.setBehaviour('tc.tcp.test', { drop: true, transport: 'tcp' });
    const started = performance.now();
    const e = await probeError(client.query(question('tc.tcp.test')));
    expect(e.kind).toBe('TIMEOUT');
    expect(performance.now() - started).toBeLessThan(TIMEOUT_MS + 2_000);
  });

  it('a TC answer from a server with no TCP listener → REFUSED', async () => {
    const udpOnly = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => udpOnly.bind(0, '127.0.0.1', resolve));
    udpOnly.on('message', (bytes, remote) => {
      const q = dnsPacket.decode(bytes);
      const reply = dnsPacket.encode({
        type: 'response',
        id: q.id,
        flags: dnsPacket.TRUNCATED_RESPONSE,
        questions: q.questions,
      });
      udpOnly.send(reply, remote.port, remote.address);
    });
    try {
      const e = await probeError(
        client.query({ name: 'a.test', type: 'A', server: { host: '127.0.0.1', port: udpOnly.address().port } }),
      );
      expect(e.kind).toBe('REFUSED');
      expect(e.message).toContain('refused the TCP connection');
    } finally {
      await new Promise<void>((resolve) => udpOnly.close(() => resolve()));
    }
  });
});

describe('header bits', () => {
  it('DO, CD and RD reach the server as asked', async () => {
    await client.query({ ...question('tc.tcp.test'), dnssecOk: true, checkingDisabled: true, recursionDesired: false });
    await client.query(question('tc.tcp.test'));
    expect(lab.queries.map(({ do: d, cd, rd }) => ({ do: d, cd, rd }))).toEqual([
      { do: true, cd: true, rd: false },
      { do: false, cd: false, rd: true },
    ]);
  });

  it('AD in the answer is reported as authenticData', async () => {
    lab.flags.ad = true;
    const r = await client.query({ ...question('tc.tcp.test'), dnssecOk: true });
    expect(r.authenticData).toBe(true);
  });

  it('the query carries EDNS0 with a 1232-byte payload, AD set, a random ID and a fresh source port', async () => {
    const seen: { id: number; port: number; payload: number | undefined; ad: boolean }[] = [];
    const sniffer = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => sniffer.bind(0, '127.0.0.1', resolve));
    sniffer.on('message', (bytes, remote) => {
      const q = dnsPacket.decode(bytes);
      const opt = q.additionals?.find((a) => a.type === 'OPT');
      seen.push({
        id: q.id!,
        port: remote.port,
        payload: opt && 'udpPayloadSize' in opt ? opt.udpPayloadSize : undefined,
        ad: q.flag_ad,
      });
      sniffer.send(
        dnsPacket.encode({ type: 'response', id: q.id, questions: q.questions }),
        remote.port,
        remote.address,
      );
    });
    try {
      for (let i = 0; i < 6; i++) {
        await client.query({ name: 'a.test', type: 'A', server: { host: '127.0.0.1', port: sniffer.address().port } });
      }
    } finally {
      await new Promise<void>((resolve) => sniffer.close(() => resolve()));
    }
    expect(seen).toHaveLength(6);
    expect(seen.every((s) => s.payload === 1232 && s.ad)).toBe(true);
    expect(new Set(seen.map((s) => s.id)).size).toBeGreaterThan(1);
    expect(new Set(seen.map((s) => s.port)).size).toBeGreaterThan(1);
  });
});

describe('server addresses', () => {
  it.skipIf(!ipv6)('an IPv6 server on ::1 is asked over udp6 and tcp6, and named in brackets', async () => {
    const lab6 = await startDnsLab({ host: '::1', records: [rr.aaaa('v6.test', '2001:db8::6'), ...bigTxt] });
    try {
      const r = await client.query({ name: 'v6.test', type: 'AAAA', server: lab6.address });
      expect(r.answers.map((a) => a.data)).toEqual(['2001:db8::6']);
      expect(r.server).toBe(`[::1]:${lab6.port}`);
      const big = await client.query({ name: 'big.tcp.test', type: 'TXT', server: lab6.address });
      expect(big.transport).toBe('tcp');
      expect(big.answers).toHaveLength(60);
    } finally {
      await lab6.close();
    }
  });

  it('a server given by name is looked up through the OS (here "localhost" from /etc/hosts)', async () => {
    const { address } = await dns.promises.lookup('localhost');
    expect(['127.0.0.1', '::1']).toContain(address);
    const local = await startDnsLab({
      host: address as '127.0.0.1' | '::1',
      records: [rr.a('named.test', '192.0.2.30')],
    });
    try {
      const r = await client.query({ name: 'named.test', type: 'A', server: { host: 'localhost', port: local.port } });
      expect(r.answers.map((a) => a.data)).toEqual(['192.0.2.30']);
      expect(r.server).toBe(`localhost:${local.port}`);
    } finally {
      await local.close();
    }
  });
});

describe('systemResolvers', () => {
  it('turns node:dns getServers() into HostPort entries, IPv6 and ports included', () => {
    const saved = dns.getServers();
    try {
      dns.setServers(['127.0.0.1', '127.0.0.2:5353', '::1', '[::1]:5300']);
      expect(systemResolvers()).toEqual([
        { host: '127.0.0.1', port: 53 },
        { host: '127.0.0.2', port: 5353 },
        { host: '::1', port: 53 },
        { host: '::1', port: 5300 },
      ]);
    } finally {
      dns.setServers(saved);
    }
  });
});

describe('clean-up', () => {
  /**
   * Records every timer, socket and connect request the probe's own modules create (told apart by
   * the stack at creation) and forgets each as it is destroyed: what is left at the end leaked.
   */
  function trackProbeResources(): { alive(): string[]; stop(): void } {
    const live = new Map<number, string>();
    const hook = createHook({
      init(asyncId, type) {
        if (!['Timeout', 'UDPWRAP', 'TCPWRAP', 'TCPCONNECTWRAP'].includes(type)) return;
        const saved = Error.stackTraceLimit;
        Error.stackTraceLimit = 30;
        const stack = new Error().stack ?? '';
        Error.stackTraceLimit = saved;
        if (stack.includes('/src/probes/dns')) live.set(asyncId, type);
      },
      destroy(asyncId) {
        live.delete(asyncId);
      },
    }).enable();
    return { alive: () => [...live.values()], stop: () => hook.disable() };
  }

  it('leaves no socket, timer or listener behind on any path', async () => {
    const tracked = trackProbeResources();
    try {
      const longLived = new AbortController();
      await client.query(question('tc.tcp.test'), { signal: longLived.signal });
      await client.query(question('big.tcp.test', 'TXT'), { signal: longLived.signal });
      expect(getEventListeners(longLived.signal, 'abort')).toHaveLength(0);
      lab.setBehaviour('dead.tcp.test', { drop: true });
      await probeError(client.query(question('dead.tcp.test'), { timeoutMs: 100 }));
      lab.setBehaviour('gone.tcp.test', { truncate: true });
      lab.setBehaviour('gone.tcp.test', { hangUp: true, transport: 'tcp' });
      await probeError(client.query(question('gone.tcp.test')));
      lab.setBehaviour('stuck.tcp.test', { truncate: true });
      lab.setBehaviour('stuck.tcp.test', { drop: true, transport: 'tcp' });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      await probeError(client.query(question('stuck.tcp.test'), { signal: controller.signal, timeoutMs: 5000 }));
      expect(lab.countQueries('stuck.tcp.test', 'A', 'tcp')).toBe(1);
      // a caller's bug (port 0) throws from inside the socket set-up
      await expect(client.query({ name: 'a.test', type: 'A', server: { host: '127.0.0.1', port: 0 } })).rejects.toThrow(
        /Port/,
      );
      // destroy hooks run after the handles' close callbacks
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(tracked.alive()).toEqual([]);
    } finally {
      tracked.stop();
    }
  });

  it('the tracker sees a probe socket that is still open', async () => {
    const tracked = trackProbeResources();
    try {
      lab.setBehaviour('open.tcp.test', { drop: true });
      const pending = client.query(question('open.tcp.test'), { timeoutMs: 300 });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(tracked.alive()).toEqual(expect.arrayContaining(['UDPWRAP', 'Timeout']));
      await probeError(pending);
    } finally {
      tracked.stop();
    }
  });
});
