/**
 * ping end to end: REST and GraphQL through the app, a loopback DNS lab as the system resolver
 * (A, AAAA and PTR records). The real ping binary pings only 127.0.0.1 and ::1; every other case
 * (no reply, ping's error exit, a hung ping, a refused target) runs a stand-in executable given
 * through the `pingPath` test seam, which also records how often it ran.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { reverseLookupName } from './result.js';
import { createTestApp, graphql, type TestApp } from '../../../../test/helpers/app.js';
import { rr, startDnsLab, type DnsLab } from '../../../../test/lab/dns-server.js';

const V4_HOST = 'v4.lab.test';
const V6_HOST = 'v6.lab.test';
const DUAL_HOST = 'dual.lab.test';
const PING = { count: 2, timeoutMs: 2000 };
const LOOPBACK = ['127.0.0.0/8', '::1/128'];

const scratch = mkdtempSync(join(tmpdir(), 'netdiag-ping-it-'));

/** iputils' transcript of a ping that got no reply, as the stand-in prints it. */
const NO_REPLY = `PING 127.0.0.2 (127.0.0.2) 56(84) bytes of data.

--- 127.0.0.2 ping statistics ---
2 packets transmitted, 0 received, 100% packet loss, time 1020ms
`;

const ALL_REPLIES = `PING 127.0.0.2 (127.0.0.2) 56(84) bytes of data.
64 bytes from 127.0.0.2: icmp_seq=1 ttl=64 time=0.041 ms
64 bytes from 127.0.0.2: icmp_seq=2 ttl=64 time=0.063 ms

--- 127.0.0.2 ping statistics ---
2 packets transmitted, 2 received, 0% packet loss, time 1001ms
rtt min/avg/max/mdev = 0.041/0.052/0.063/0.011 ms
`;

/**
 * A stand-in ping: appends its arguments to `<name>.runs` (one line per run), prints `stdout`
 * and exits with `exitCode`. `hang` replaces the shell with a long sleep (so that killing it
 * leaves nothing behind).
 */
function standIn(
  name: string,
  options: { stdout?: string; stderr?: string; exitCode?: number; hang?: boolean },
): { path: string; runs: () => string[] } {
  const path = join(scratch, name);
  const runsFile = `${path}.runs`;
  const lines = [
    '#!/bin/sh',
    `echo "$*" >> '${runsFile}'`,
    options.hang ? 'exec sleep 30' : '',
    options.stdout !== undefined ? `cat <<'OUT'\n${options.stdout}OUT` : '',
    options.stderr !== undefined ? `echo '${options.stderr}' >&2` : '',
    `exit ${options.exitCode ?? 0}`,
  ];
  writeFileSync(path, `${lines.filter((l) => l !== '').join('\n')}\n`);
  chmodSync(path, 0o755);
  return { path, runs: () => (existsSync(runsFile) ? readFileSync(runsFile, 'utf8').trim().split('\n') : []) };
}

let dns: DnsLab;
/** real ping, loopback admitted */
let t: TestApp;
const apps: TestApp[] = [];

async function appWith(
  options: { allow?: string[]; pingPath?: string; ping?: { count: number; timeoutMs: number } } = {},
): Promise<TestApp> {
  const app = await createTestApp(
    {
      dns: { system: [`127.0.0.1:${dns.port}`], timeoutMs: 500 },
      ping: options.ping ?? PING,
      ...(options.allow ? { targets: { allow: options.allow } } : {}),
    },
    options.pingPath !== undefined ? { pingPath: options.pingPath } : {},
  );
  apps.push(app);
  return app;
}

beforeAll(async () => {
  dns = await startDnsLab({
    authoritative: false,
    records: [
      rr.a(V4_HOST, '127.0.0.1'),
      rr.aaaa(V6_HOST, '::1'),
      rr.a(DUAL_HOST, '127.0.0.1'),
      rr.aaaa(DUAL_HOST, '::1'),
      rr.a('quiet.lab.test', '127.0.0.2'),
      rr.txt('noaddr.lab.test', 'no address'),
      rr.ptr(reverseLookupName('127.0.0.1'), 'localhost.lab.test.'),
      rr.ptr(reverseLookupName('::1'), 'ip6-localhost.lab.test.'),
    ],
  });
  t = await appWith({ allow: LOOPBACK });
});

afterAll(async () => {
  for (const app of apps) await app.close();
  await dns?.close();
  rmSync(scratch, { recursive: true, force: true });
});

beforeEach(() => {
  dns.clearBehaviours();
  dns.clearQueries();
});

const ping = (app: TestApp, host: string) => app.get(`/api/v1/ping?host=${encodeURIComponent(host)}`);

describe('ping with the real binary (loopback only)', () => {
  it('pings 127.0.0.1: Online, with its statistics, reverse name and transcript', async () => {
    const res = await ping(t, '127.0.0.1');
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.meta).toEqual({ tool: 'ping', version: 'v1' });
    expect(body.data).toEqual({
      host: '127.0.0.1',
      ip: '127.0.0.1',
      reverseDns: 'localhost.lab.test',
      reverseDnsError: null,
      status: 'Online',
      sent: 2,
      received: 2,
      lost: 0,
      lossPercent: 0,
      min: expect.any(Number),
      max: expect.any(Number),
      average: expect.any(Number),
      duplicates: 0,
      icmpErrors: 0,
      text: expect.stringContaining(
        '--- 127.0.0.1 ping statistics ---\n2 packets transmitted, 2 received, 0% packet loss',
      ),
    });
    expect(body.data.min).toBeLessThanOrEqual(body.data.average);
    expect(body.data.average).toBeLessThanOrEqual(body.data.max);
  });

  it('pings ::1 by a name with only an AAAA record, over GraphQL', async () => {
    const res = await graphql(
      t,
      'query ($host: String!) { ping(host: $host) { host ip reverseDns status sent received text } }',
      { host: V6_HOST.toUpperCase() },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.ping).toEqual({
      host: V6_HOST,
      ip: '::1',
      reverseDns: 'ip6-localhost.lab.test',
      status: 'Online',
      sent: 2,
      received: 2,
      text: expect.stringContaining('--- ::1 ping statistics ---'),
    });
    expect(dns.countQueries(reverseLookupName('::1'), 'PTR')).toBe(1);
  });

  it('prefers the IPv4 address of a dual-stack name', async () => {
    const body = await (await ping(t, DUAL_HOST)).json();
    expect(body.data).toMatchObject({ host: DUAL_HOST, ip: '127.0.0.1', status: 'Online' });
  });
});

describe('ping with a stand-in executable', () => {
  it('reports no reply as Offline with null times, a finding and not an error', async () => {
    const fake = standIn('no-reply', { stdout: NO_REPLY, exitCode: 1 });
    const app = await appWith({ allow: LOOPBACK, pingPath: fake.path });
    const res = await ping(app, 'quiet.lab.test');
    expect(res.status).toBe(200);
    expect((await res.json()).data).toEqual({
      host: 'quiet.lab.test',
      ip: '127.0.0.2',
      reverseDns: '',
      reverseDnsError: null,
      status: 'Offline',
      sent: 2,
      received: 0,
      lost: 2,
      lossPercent: 100,
      min: null,
      max: null,
      average: null,
      duplicates: 0,
      icmpErrors: 0,
      text: NO_REPLY.trimEnd(),
    });
    // -n, count and deadline from the configuration, the checked address last
    expect(fake.runs()).toEqual(['-n -c 2 -w 2 -W 2 -i 0.5 -4 127.0.0.2']);
  });

  it('keeps an answered ping when the PTR lookup times out, and says why the name is empty', async () => {
    const fake = standIn('replies', { stdout: ALL_REPLIES, exitCode: 0 });
    const app = await appWith({ allow: LOOPBACK, pingPath: fake.path });
    dns.setBehaviour(/\.in-addr\.arpa$/, { drop: true });
    const res = await ping(app, '127.0.0.2');
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.data).toMatchObject({
      status: 'Online',
      received: 2,
      min: 0.041,
      average: 0.052,
      max: 0.063,
      reverseDns: '',
    });
    expect(body.data.reverseDnsError).toMatch(/did not answer/);
  });

  it('is a 502 naming the address when ping itself fails, a 504 when it hangs, a 503 without a ping binary', async () => {
    const failing = standIn('failing', { stderr: 'ping: connect: Network is unreachable', exitCode: 2 });
    const failed = await ping(await appWith({ allow: LOOPBACK, pingPath: failing.path }), '127.0.0.2');
    expect(failed.status).toBe(502);
    expect((await failed.json()).error).toBe('ping 127.0.0.2 failed: ping: connect: Network is unreachable');
    const gql = await graphql(
      await appWith({ allow: LOOPBACK, pingPath: failing.path }),
      '{ ping(host: "127.0.0.2") { status } }',
    );
    expect(gql.body.errors[0].extensions).toMatchObject({
      code: 'UPSTREAM_FAILED',
      kind: 'UNREACHABLE',
      upstream: '127.0.0.2',
    });

    const hanging = standIn('hanging', { hang: true });
    const timeoutMs = 1000;
    const started = Date.now();
    const hung = await ping(
      await appWith({ allow: LOOPBACK, pingPath: hanging.path, ping: { count: 1, timeoutMs } }),
      '127.0.0.2',
    );
    expect(hung.status).toBe(504);
    expect((await hung.json()).error).toMatch(/^ping 127\.0\.0\.2 did not finish within \d+ ms$/);
    // the probe's own bound is the deadline plus a kill margin; generous here
    expect(Date.now() - started).toBeLessThan(2 * (timeoutMs + 2000));

    const missing = await ping(
      await appWith({ allow: LOOPBACK, pingPath: join(scratch, 'no-such-ping') }),
      '127.0.0.2',
    );
    expect(missing.status).toBe(503);
    expect((await missing.json()).error).toMatch(/^ping cannot be run on this server/);
  });

  it('refuses loopback under the production rule, in every spelling, without running ping', async () => {
    const fake = standIn('never', { stdout: ALL_REPLIES });
    const refusing = await appWith({ pingPath: fake.path });
    const cases: [string, RegExp][] = [
      ['127.0.0.1', /^target 127\.0\.0\.1 is a loopback address; checks of private or internal addresses are refused$/],
      [V4_HOST, /^target v4\.lab\.test resolves to 127\.0\.0\.1, a loopback address/],
      ['2130706433', /^target 127\.0\.0\.1 is a loopback address/],
      ['::ffff:127.0.0.1', /loopback address/],
      ['::1', /^target ::1 is a loopback address/],
    ];
    for (const [host, message] of cases) {
      const res = await ping(refusing, host);
      expect(res.status, host).toBe(400);
      expect(await res.json(), host).toEqual({
        ok: false,
        error: expect.stringMatching(message),
        meta: { tool: 'ping', version: 'v1' },
      });
    }
    const gql = await graphql(refusing, '{ ping(host: "127.0.0.1") { status } }');
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'TARGET_REFUSED' });
    // an allow list that admits 127.0.0.1 only still refuses 127.0.0.2
    const narrow = await appWith({ allow: ['127.0.0.1/32'], pingPath: fake.path });
    expect((await ping(narrow, 'quiet.lab.test')).status).toBe(400);
    expect(fake.runs()).toEqual([]);
  });

  it('rejects bad input with a 400 naming the parameter, without running ping', async () => {
    const fake = standIn('bad-input', { stdout: ALL_REPLIES });
    const app = await appWith({ allow: LOOPBACK, pingPath: fake.path });
    const cases: [string, RegExp][] = [
      ['/api/v1/ping', /^host: missing required parameter$/],
      ['/api/v1/ping?host=http%3A%2F%2Fexample.com%2F', /^host: .*is a URL/],
      ['/api/v1/ping?host=example.com%3A80', /^host: .*has a port/],
      ['/api/v1/ping?host=exa%20mple.test', /^host: .*contains " "/],
      ['/api/v1/ping?host=-c', /^host: /],
      ['/api/v1/ping?host=noaddr.lab.test', /^host: noaddr\.lab\.test has no A or AAAA record/],
    ];
    for (const [path, message] of cases) {
      const res = await app.get(path);
      expect(res.status, path).toBe(400);
      expect((await res.json()).error, path).toMatch(message);
    }
    expect(fake.runs()).toEqual([]);
  });

  it('pings an address once per request however many fields ask', async () => {
    const fake = standIn('shared', { stdout: ALL_REPLIES });
    const app = await appWith({ allow: LOOPBACK, pingPath: fake.path });
    const res = await graphql(
      app,
      `{ a: ping(host: "${V4_HOST}") { ip status } b: ping(host: "127.0.0.1") { ip reverseDns } }`,
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data).toEqual({
      a: { ip: '127.0.0.1', status: 'Online' },
      b: { ip: '127.0.0.1', reverseDns: 'localhost.lab.test' },
    });
    expect(fake.runs()).toHaveLength(1);
    expect(dns.countQuestions(reverseLookupName('127.0.0.1'), 'PTR')).toBeLessThanOrEqual(1);
  });
});
