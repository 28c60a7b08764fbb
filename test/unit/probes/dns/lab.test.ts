/** The lab DNS server itself: later tests rely on these behaviours. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ProbeError } from '../../../../src/probes/errors.js';
import { createDnsClient } from '../../../../src/probes/dns/client.js';
import type { DnsQuery } from '../../../../src/probes/dns/client.js';
import { DEFAULT_LAB_SOA, rr, startDnsLab } from '../../../lab/dns-server.js';
import type { DnsLab } from '../../../lab/dns-server.js';

let lab: DnsLab;
const client = createDnsClient({ timeoutMs: 1000 });
const question = (name: string, type: DnsQuery['type'] = 'A', extra: Partial<DnsQuery> = {}): DnsQuery => ({
  name,
  type,
  server: lab.address,
  ...extra,
});
const failureKind = (p: Promise<unknown>): Promise<string> =>
  p.then(
    () => 'answered',
    (e: unknown) => (e instanceof ProbeError ? e.kind : `not a ProbeError: ${String(e)}`),
  );

const sig = (covered: string) =>
  rr.rrsig('signed.test', {
    typeCovered: covered,
    algorithm: 13,
    labels: 2,
    originalTtl: 300,
    expiration: 1_900_000_000,
    inception: 1_700_000_000,
    keyTag: 1234,
    signerName: 'signed.test',
    signatureBase64: 'AAAA',
  });

beforeAll(async () => {
  lab = await startDnsLab({
    records: [
      rr.a('a.lab.test', '192.0.2.1'),
      rr.a('b.lab.test', '192.0.2.2'),
      rr.soa('signed.test'),
      rr.a('signed.test', '192.0.2.3'),
      sig('A'),
      sig('SOA'),
      rr.cname('loop1.lab.test', 'loop2.lab.test'),
      rr.cname('loop2.lab.test', 'loop1.lab.test'),
      rr.cname('away.lab.test', 'nowhere.elsewhere.test'),
    ],
  });
});
afterEach(() => {
  lab.clearBehaviours();
  lab.clearQueries();
});
afterAll(() => lab.close());

describe('answers', () => {
  it('UDP and TCP listen on the same port', async () => {
    lab.setBehaviour('a.lab.test', { truncate: true });
    const r = await client.query(question('a.lab.test'));
    expect(r.transport).toBe('tcp');
    expect(lab.queries.map((q) => q.transport)).toEqual(['udp', 'tcp']);
  });

  it('follows the mutable record list', async () => {
    expect((await client.query(question('new.lab.test'))).rcode).toBe('NXDOMAIN');
    lab.records.push(rr.a('new.lab.test', '192.0.2.99'));
    expect((await client.query(question('new.lab.test'))).answers.map((a) => a.data)).toEqual(['192.0.2.99']);
    lab.records = lab.records.filter((r) => r.name !== 'new.lab.test');
    expect((await client.query(question('new.lab.test'))).rcode).toBe('NXDOMAIN');
  });

  it('uses DEFAULT_LAB_SOA for negative answers outside every SOA of the list', async () => {
    const r = await client.query(question('nothing.lab.test'));
    expect(r.authority).toEqual([{ name: '.', type: 'SOA', ttl: DEFAULT_LAB_SOA.ttl, data: DEFAULT_LAB_SOA.data }]);
  });

  it('a CNAME to a name with no records ends in NXDOMAIN (RFC 6604: the last name decides)', async () => {
    const r = await client.query(question('away.lab.test'));
    expect(r.rcode).toBe('NXDOMAIN');
    expect(r.answers.map((a) => a.type)).toEqual(['CNAME']);
  });

  it('a CNAME loop is SERVFAIL, as from a resolver that gives up', async () => {
    expect(await failureKind(client.query(question('loop1.lab.test')))).toBe('SERVFAIL');
  });

  it('adds covering RRSIGs only when DO is set (RFC 4035 §3.1.1)', async () => {
    const plain = await client.query(question('signed.test'));
    expect(plain.answers.map((a) => a.type)).toEqual(['A']);
    const withDo = await client.query(question('signed.test', 'A', { dnssecOk: true }));
    expect(withDo.answers.map((a) => a.type)).toEqual(['A', 'RRSIG']);
    const nodata = await client.query(question('signed.test', 'MX', { dnssecOk: true }));
    expect(nodata.authority.map((a) => a.type)).toEqual(['SOA', 'RRSIG']);
  });

  it('plays a resolver when not authoritative, and its flags can be changed', async () => {
    const resolver = await startDnsLab({ authoritative: false, records: [rr.a('r.test', '192.0.2.5')] });
    try {
      const ask = () => client.query({ name: 'r.test', type: 'A', server: resolver.address });
      expect(await ask()).toMatchObject({ authoritative: false, recursionAvailable: true, authenticData: false });
      resolver.flags.ad = true;
      expect((await ask()).authenticData).toBe(true);
    } finally {
      await resolver.close();
    }
  });

  it('records it cannot encode are reported in errors and answered with SERVFAIL', async () => {
    const broken = await startDnsLab({
      records: [{ name: 'bad.test', type: 'DNSKEY', data: { flags: 257, algorithm: 13, key: 'not a Buffer' } }],
    });
    try {
      expect(await failureKind(client.query({ name: 'bad.test', type: 'DNSKEY', server: broken.address }))).toBe(
        'SERVFAIL',
      );
      expect(broken.errors).toHaveLength(1);
      expect(broken.errors[0]!.message).toContain('DNSKEY bad.test');
    } finally {
      await broken.close();
    }
  });
});

describe('behaviours', () => {
  it('match by exact name (any case), RegExp or "*", optionally by type; later rules win', async () => {
    lab.setBehaviour('A.LAB.TEST.', { refused: true });
    expect(await failureKind(client.query(question('a.lab.test')))).toBe('REFUSED');
    expect(await failureKind(client.query(question('b.lab.test')))).toBe('answered');

    lab.setBehaviour(/^b\./, { servfail: true }, 'A');
    expect(await failureKind(client.query(question('b.lab.test')))).toBe('SERVFAIL');
    expect(await failureKind(client.query(question('b.lab.test', 'MX')))).toBe('answered');

    lab.setBehaviour('*', { rcode: 4 });
    expect(await failureKind(client.query(question('a.lab.test')))).toBe('SERVFAIL');
    lab.clearBehaviours();
    expect(await failureKind(client.query(question('a.lab.test')))).toBe('answered');
  });

  it('a rule scoped to one transport leaves the other alone', async () => {
    lab.setBehaviour('a.lab.test', { servfail: true, transport: 'udp' });
    lab.setBehaviour('b.lab.test', { servfail: true, transport: 'tcp' });
    expect(await failureKind(client.query(question('a.lab.test')))).toBe('SERVFAIL');
    expect(await failureKind(client.query(question('b.lab.test')))).toBe('answered');
  });

  it('a delayed answer does not hold up the others', async () => {
    lab.setBehaviour('a.lab.test', { delayMs: 300 });
    const order: string[] = [];
    await Promise.all([
      client.query(question('a.lab.test')).then(() => order.push('slow')),
      client.query(question('b.lab.test')).then(() => order.push('fast')),
    ]);
    expect(order).toEqual(['fast', 'slow']);
  });

  it('a lab-wide delay applies to every answer', async () => {
    const slow = await startDnsLab({ delayMs: 100, records: [rr.a('s.test', '192.0.2.7')] });
    try {
      const started = performance.now();
      await client.query({ name: 's.test', type: 'A', server: slow.address });
      expect(performance.now() - started).toBeGreaterThanOrEqual(90);
    } finally {
      await slow.close();
    }
  });

  it('counts questions by name, type and transport', async () => {
    await client.query(question('a.lab.test'));
    await client.query(question('A.lab.test', 'MX'));
    await client.query(question('b.lab.test'));
    expect(lab.countQueries()).toBe(3);
    expect(lab.countQueries('a.lab.test')).toBe(2);
    expect(lab.countQueries('a.lab.test', 'mx')).toBe(1);
    expect(lab.countQueries(undefined, 'A', 'udp')).toBe(2);
    expect(lab.countQueries(undefined, undefined, 'tcp')).toBe(0);
  });
});

describe('close', () => {
  it('stops answering, drops pending delayed answers, and can be called twice', async () => {
    const shortLived = await startDnsLab({ delayMs: 5000, records: [rr.a('c.test', '192.0.2.8')] });
    const pending = client.query({ name: 'c.test', type: 'A', server: shortLived.address }, { timeoutMs: 300 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await shortLived.close();
    await shortLived.close();
    // the pending question gets no answer: it times out, or its re-send meets the closed port
    expect(['TIMEOUT', 'REFUSED']).toContain(await failureKind(pending));
    expect(await failureKind(client.query({ name: 'c.test', type: 'A', server: shortLived.address }))).toBe('REFUSED');
  });
});
