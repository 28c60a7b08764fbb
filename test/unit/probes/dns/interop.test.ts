/**
 * Cross-checks against real DNS software on loopback (Debian packages; each part is skipped, and
 * says so, when its binary is missing): the client against unbound, the lab against dig.
 * unbound is told to refuse every name outside its local zone, so it never recurses anywhere.
 */
import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import dgram from 'node:dgram';
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProbeError } from '../../../../src/probes/errors.js';
import { createDnsClient, recordsOfType, responseTtl } from '../../../../src/probes/dns/client.js';
import type { DnsQuery } from '../../../../src/probes/dns/client.js';
import { rr, startDnsLab } from '../../../lab/dns-server.js';
import type { DnsLab } from '../../../lab/dns-server.js';

function binary(name: string): string | undefined {
  for (const dir of ['/usr/sbin', '/usr/bin', '/sbin', '/bin']) {
    try {
      accessSync(path.join(dir, name), constants.X_OK);
      return path.join(dir, name);
    } catch {
      // not in this directory
    }
  }
  return undefined;
}
const unboundPath = binary('unbound');
const digPath = binary('dig');
const client = createDnsClient({ timeoutMs: 2000 });

/** A loopback port free for both UDP and TCP at the time of asking. */
async function freePort(): Promise<number> {
  for (;;) {
    const udp = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
    const port = udp.address().port;
    const tcp = net.createServer();
    const free = await new Promise<boolean>((resolve) => {
      tcp.once('error', () => resolve(false));
      tcp.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (free) await new Promise<void>((resolve) => tcp.close(() => resolve()));
    await new Promise<void>((resolve) => udp.close(() => resolve()));
    if (free) return port;
  }
}

describe.skipIf(unboundPath === undefined)('the client against unbound', () => {
  let dir: string;
  let unbound: ChildProcess;
  let port: number;
  const question = (name: string, type: DnsQuery['type'] = 'A'): DnsQuery => ({
    name,
    type,
    server: { host: '127.0.0.1', port },
  });

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'netdiag-unbound-'));
    port = await freePort();
    const big = Array.from(
      { length: 40 },
      (_, i) => `  local-data: 'big.interop.test. 300 IN TXT "${String(i).padStart(3, '0')}${'q'.repeat(97)}"'`,
    );
    const config = [
      'server:',
      '  interface: 127.0.0.1',
      `  port: ${port}`,
      '  do-daemonize: no',
      '  use-syslog: no',
      '  logfile: ""',
      '  chroot: ""',
      '  username: ""',
      `  directory: "${dir}"`,
      '  pidfile: ""',
      '  module-config: "iterator"',
      '  do-ip6: no',
      '  access-control: 127.0.0.0/8 allow',
      '  local-zone: "." refuse',
      '  local-zone: "interop.test." static',
      '  local-data: "interop.test. 300 IN SOA ns.interop.test. h.interop.test. 7 3600 600 86400 120"',
      '  local-data: "interop.test. 300 IN A 192.0.2.50"',
      '  local-data: "www.interop.test. 300 IN CNAME interop.test."',
      '  local-data: "interop.test. 300 IN MX 10 mx.interop.test."',
      `  local-data: 'interop.test. 300 IN TXT "v=spf1 " "-all"'`,
      ...big,
      'remote-control:',
      '  control-enable: no',
    ].join('\n');
    writeFileSync(path.join(dir, 'unbound.conf'), `${config}\n`);
    unbound = spawn(unboundPath!, ['-d', '-c', path.join(dir, 'unbound.conf')], { stdio: 'ignore' });
    // ready when it answers
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(question('interop.test'), { timeoutMs: 200 });
        return;
      } catch (e) {
        if (attempt >= 40) throw e;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  });

  afterAll(async () => {
    if (unbound && unbound.exitCode === null) {
      const exited = new Promise((resolve) => unbound.once('exit', resolve));
      unbound.kill('SIGTERM');
      await exited;
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('reads an authoritative A answer', async () => {
    const r = await client.query(question('interop.test'));
    expect(r).toMatchObject({ rcode: 'NOERROR', authoritative: true, transport: 'udp' });
    expect(r.answers.map((a) => a.data)).toEqual(['192.0.2.50']);
  });

  it('reads a CNAME-only answer (unbound does not chase local data), joins TXT strings, reads MX', async () => {
    const cname = await client.query(question('www.interop.test'));
    expect(cname.answers.map((a) => [a.type, a.data])).toEqual([['CNAME', 'interop.test']]);
    expect(recordsOfType(cname, 'www.interop.test', 'A')).toEqual([]);
    expect(recordsOfType(cname, 'www.interop.test', 'CNAME')).toHaveLength(1);
    const txt = await client.query(question('interop.test', 'TXT'));
    expect(txt.answers.map((a) => a.data)).toEqual(['v=spf1 -all']);
    const mx = await client.query(question('interop.test', 'MX'));
    expect(mx.answers.map((a) => a.data)).toEqual([{ preference: 10, exchange: 'mx.interop.test' }]);
  });

  it('NXDOMAIN with the SOA gives the negative TTL', async () => {
    const r = await client.query(question('nothing.interop.test'));
    expect(r.rcode).toBe('NXDOMAIN');
    expect(responseTtl(r)).toBe(120);
  });

  it('an answer over the EDNS payload comes truncated and is read whole over TCP', async () => {
    const r = await client.query(question('big.interop.test', 'TXT'));
    expect(r.transport).toBe('tcp');
    expect(r.answers).toHaveLength(40);
  });

  it('a refused name is ProbeError REFUSED', async () => {
    const e = await client.query(question('elsewhere.example')).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ProbeError);
    expect((e as ProbeError).kind).toBe('REFUSED');
  });
});

describe.skipIf(digPath === undefined)('the lab as dig sees it', () => {
  let lab: DnsLab;
  const dig = async (...args: string[]): Promise<string> => {
    const { stdout } = await promisify(execFile)(
      digPath!,
      [`@${lab.host}`, '-p', String(lab.port), '+tries=1', '+time=2', '+noall', '+answer', ...args],
      { timeout: 10_000 },
    );
    return stdout.trim();
  };

  beforeAll(async () => {
    lab = await startDnsLab({
      records: [
        rr.a('dig.test', '192.0.2.60', 60),
        rr.mx('dig.test', 5, 'mx.dig.test', 60),
        rr.txt('dig.test', 'a'.repeat(300), 60),
        ...Array.from({ length: 40 }, (_, i) =>
          rr.txt('big.dig.test', `${String(i).padStart(3, '0')}${'w'.repeat(97)}`),
        ),
      ],
    });
  });
  afterAll(() => lab.close());

  it('answers over UDP and TCP in a form dig reads', async () => {
    expect(await dig('dig.test', 'A')).toMatch(/^dig\.test\.\s+60\s+IN\s+A\s+192\.0\.2\.60$/);
    expect(await dig('+tcp', 'dig.test', 'MX')).toMatch(/^dig\.test\.\s+60\s+IN\s+MX\s+5 mx\.dig\.test\.$/);
    expect(lab.queries.map((q) => q.transport)).toEqual(['udp', 'tcp']);
  });

  it('splits a long TXT into 255-byte strings', async () => {
    expect(await dig('dig.test', 'TXT')).toContain(`"${'a'.repeat(255)}" "${'a'.repeat(45)}"`);
  });

  it('sets TC on an oversized UDP answer, and dig falls back to TCP', async () => {
    lab.clearQueries();
    const lines = (await dig('big.dig.test', 'TXT')).split('\n');
    expect(lines).toHaveLength(40);
    expect(lab.queries.map((q) => q.transport)).toEqual(['udp', 'tcp']);
  });
});
