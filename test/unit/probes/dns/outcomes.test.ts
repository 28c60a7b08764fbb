import dgram from 'node:dgram';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../../../../src/errors.js';
import { ProbeError } from '../../../../src/probes/errors.js';
import { createDnsClient } from '../../../../src/probes/dns/client.js';
import type { DnsQuery } from '../../../../src/probes/dns/client.js';
import { rr, startDnsLab } from '../../../lab/dns-server.js';
import type { DnsLab } from '../../../lab/dns-server.js';

const TIMEOUT_MS = 400;
let lab: DnsLab;
const client = createDnsClient({ timeoutMs: TIMEOUT_MS });
const question = (name: string, type: DnsQuery['type'] = 'A'): DnsQuery => ({ name, type, server: lab.address });

/** The ProbeError a rejected promise carries (fails the test when it resolves or throws something else). */
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

beforeAll(async () => {
  lab = await startDnsLab({
    records: [
      rr.soa('zone.test', { minimum: 120 }),
      rr.a('host.zone.test', '192.0.2.10'),
      rr.a('deep.sub.zone.test', '192.0.2.11'),
    ],
  });
});
afterEach(() => {
  lab.clearBehaviours();
  lab.clearQueries();
});
afterAll(() => lab.close());

describe('results: NXDOMAIN and NODATA', () => {
  it('a name that does not exist is NXDOMAIN with the SOA in authority', async () => {
    const r = await client.query(question('missing.zone.test'));
    expect(r.rcode).toBe('NXDOMAIN');
    expect(r.answers).toEqual([]);
    expect(r.authority.map((a) => [a.name, a.type])).toEqual([['zone.test', 'SOA']]);
  });

  it('a name that exists without the asked type is NOERROR with no answers (NODATA)', async () => {
    const r = await client.query(question('host.zone.test', 'MX'));
    expect(r.rcode).toBe('NOERROR');
    expect(r.answers).toEqual([]);
    expect(r.authority.map((a) => a.type)).toEqual(['SOA']);
  });

  it('an empty non-terminal is NODATA, not NXDOMAIN (RFC 8020)', async () => {
    const r = await client.query(question('sub.zone.test'));
    expect(r.rcode).toBe('NOERROR');
    expect(r.answers).toEqual([]);
  });

  it('names match case-insensitively and a trailing dot is accepted', async () => {
    const r = await client.query(question('HOST.Zone.TEST.'));
    expect(r.answers.map((a) => a.data)).toEqual(['192.0.2.10']);
  });

  it('the header bits and where the answer came from are reported', async () => {
    const r = await client.query(question('host.zone.test'));
    expect(r).toMatchObject({
      authoritative: true,
      authenticData: false,
      recursionAvailable: false,
      truncated: false,
      server: `127.0.0.1:${lab.port}`,
      transport: 'udp',
    });
    expect(r.elapsedMs).toBeGreaterThanOrEqual(0);
    expect(r.elapsedMs).toBeLessThan(TIMEOUT_MS);
  });
});

describe('rcodes that are failures', () => {
  it('SERVFAIL → ProbeError SERVFAIL (502), naming server and question', async () => {
    lab.setBehaviour('host.zone.test', { servfail: true });
    const e = await probeError(client.query(question('host.zone.test')));
    expect(e.kind).toBe('SERVFAIL');
    expect(e.status).toBe(502);
    expect(e.upstream).toBe(`127.0.0.1:${lab.port}`);
    expect(e.message).toBe(`DNS server 127.0.0.1:${lab.port} answered A host.zone.test with rcode SERVFAIL`);
  });

  it('REFUSED → ProbeError REFUSED', async () => {
    lab.setBehaviour('host.zone.test', { refused: true });
    const e = await probeError(client.query(question('host.zone.test')));
    expect(e.kind).toBe('REFUSED');
    expect(e.message).toContain('rcode REFUSED');
  });

  it.each([
    [1, 'FORMERR'],
    [4, 'NOTIMP'],
    [9, 'NOTAUTH'],
  ])('rcode %i → ProbeError SERVFAIL naming %s', async (rcode, name) => {
    lab.setBehaviour('host.zone.test', { rcode });
    const e = await probeError(client.query(question('host.zone.test')));
    expect(e.kind).toBe('SERVFAIL');
    expect(e.message).toContain(`rcode ${name}`);
  });

  it('an error answer without a question section is still taken as the answer', async () => {
    lab.setBehaviour('host.zone.test', { refused: true, omitQuestion: true });
    const e = await probeError(client.query(question('host.zone.test')));
    expect(e.kind).toBe('REFUSED');
  });
});

describe('no usable answer', () => {
  it('a dead server costs one time-out: TIMEOUT (504) after one bound and exactly two UDP sends', async () => {
    lab.setBehaviour('dead.zone.test', { drop: true });
    const started = performance.now();
    const e = await probeError(client.query(question('dead.zone.test')));
    const elapsed = performance.now() - started;
    expect(e.kind).toBe('TIMEOUT');
    expect(e.status).toBe(504);
    expect(e.message).toBe(`DNS server 127.0.0.1:${lab.port} did not answer A dead.zone.test within ${TIMEOUT_MS} ms`);
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS * 0.9);
    expect(elapsed).toBeLessThan(TIMEOUT_MS + 2_000);
    expect(lab.countQueries('dead.zone.test', 'A', 'udp')).toBe(2);
    expect(lab.countQueries('dead.zone.test', 'A', 'tcp')).toBe(0);
  });

  it('an answer before the re-send point is asked for once', async () => {
    lab.records.push(rr.a('slow.zone.test', '192.0.2.12'));
    lab.setBehaviour('slow.zone.test', { delayMs: TIMEOUT_MS * 0.2 });
    const r = await client.query(question('slow.zone.test'));
    expect(r.answers.map((a) => a.data)).toEqual(['192.0.2.12']);
    expect(lab.countQueries('slow.zone.test')).toBe(1);
  });

  it('an answer slower than the re-send point still counts: re-sent once, answered within the bound', async () => {
    lab.records.push(rr.a('slower.zone.test', '192.0.2.13'));
    lab.setBehaviour('slower.zone.test', { delayMs: TIMEOUT_MS * 0.6 });
    const r = await client.query(question('slower.zone.test'));
    expect(r.answers.map((a) => a.data)).toEqual(['192.0.2.13']);
    expect(lab.countQueries('slower.zone.test', 'A', 'udp')).toBe(2);
  });

  it('garbage only → MALFORMED (502) once the bound has passed', async () => {
    lab.setBehaviour('host.zone.test', { garbage: true });
    const started = performance.now();
    const e = await probeError(client.query(question('host.zone.test')));
    expect(e.kind).toBe('MALFORMED');
    expect(e.status).toBe(502);
    expect(e.message).toContain('no usable answer');
    expect(e.message).toContain('7-byte packet');
    expect(performance.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS * 0.9);
  });

  it('answers with the wrong ID only → MALFORMED once the bound has passed, never accepted', async () => {
    lab.setBehaviour('host.zone.test', { wrongId: true });
    const e = await probeError(client.query(question('host.zone.test')));
    expect(e.kind).toBe('MALFORMED');
    expect(e.message).toContain('another ID');
    expect(lab.countQueries('host.zone.test', 'A', 'udp')).toBe(2);
  });

  it('a spoofed and a garbage packet before the real answer are ignored', async () => {
    lab.setBehaviour('host.zone.test', { decoyFirst: true });
    const r = await client.query(question('host.zone.test'));
    expect(r.answers.map((a) => a.data)).toEqual(['192.0.2.10']);
    expect(lab.countQueries('host.zone.test')).toBe(1);
  });

  it('nothing listening on the UDP port (ICMP port unreachable) → REFUSED at once', async () => {
    const probe = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => probe.bind(0, '127.0.0.1', resolve));
    const port = probe.address().port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const started = performance.now();
    const e = await probeError(client.query({ name: 'a.test', type: 'A', server: { host: '127.0.0.1', port } }));
    expect(e.kind).toBe('REFUSED');
    expect(e.message).toContain('not listening');
    expect(performance.now() - started).toBeLessThan(TIMEOUT_MS);
  });
});

describe('abort', () => {
  it('an already aborted signal fails with ABORTED (504) and sends nothing', async () => {
    const before = lab.countQueries();
    const e = await probeError(client.query(question('host.zone.test'), { signal: AbortSignal.abort() }));
    expect(e.kind).toBe('ABORTED');
    expect(e.status).toBe(504);
    expect(lab.countQueries()).toBe(before);
  });

  it('aborting a question in flight ends it at once with ABORTED', async () => {
    lab.setBehaviour('host.zone.test', { delayMs: 5000 });
    const controller = new AbortController();
    const started = performance.now();
    const pending = client.query(question('host.zone.test'), { signal: controller.signal, timeoutMs: 5000 });
    setTimeout(() => controller.abort(), 50);
    const e = await probeError(pending);
    expect(e.kind).toBe('ABORTED');
    expect(performance.now() - started).toBeLessThan(2500);
  });
});

describe('per-question bound', () => {
  it('opts.timeoutMs overrides the client default', async () => {
    lab.setBehaviour('host.zone.test', { drop: true });
    const started = performance.now();
    const e = await probeError(client.query(question('host.zone.test'), { timeoutMs: 150 }));
    expect(e.message).toContain('within 150 ms');
    // the message proves which bound fired; the clock only shows it did not hang (wide margin for loaded CI)
    expect(performance.now() - started).toBeLessThan(150 + 2_000);
  });
});

describe('query names', () => {
  it.each([
    ['a label over 63 characters', `${'a'.repeat(64)}.test`],
    ['a name over 253 characters', `${'abcdefghi.'.repeat(26)}test`],
    ['an empty label', 'a..test'],
    ['a non-ASCII name', 'bücher.test'],
    ['a space', 'a b.test'],
  ])('%s is an InputError and nothing is sent', async (_, name) => {
    const before = lab.countQueries();
    await expect(client.query(question(name))).rejects.toBeInstanceOf(InputError);
    expect(lab.countQueries()).toBe(before);
  });

  it('the root and underscore names are asked as they are', async () => {
    lab.records.push(rr.ns('.', 'a.root-servers.test'), rr.txt('_dmarc.zone.test', 'v=DMARC1; p=none'));
    const root = await client.query(question('.', 'NS'));
    expect(root.answers).toEqual([{ name: '.', type: 'NS', ttl: 300, data: 'a.root-servers.test' }]);
    const dmarc = await client.query(question('_dmarc.zone.test', 'TXT'));
    expect(dmarc.answers.map((a) => a.data)).toEqual(['v=DMARC1; p=none']);
  });
});
