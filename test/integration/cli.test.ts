/**
 * `netdiag` as a pipeline runs it: a child process (bin/netdiag.mjs, the compiled command), in process with
 * a configuration file that points every upstream at the report lab (test/lab/report-lab.ts), and against
 * a running service (the real `npm start` path, test/helpers/process.ts). Exit codes: 0 when nothing
 * reaches --fail-on or --min-grade, 1 when something does, 2 for a usage error or a check that could not run.
 * The lab's certificates are trusted through NODE_EXTRA_CA_CERTS, as an operator would add a private CA.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startService } from '../helpers/process.js';
import { startReportLab, type ReportLab } from '../lab/report-lab.js';
import { startBlackhole, unusedPort, type Blackhole } from '../lab/tcp-server.js';
import { startTlsServer, type LabTlsServer } from '../lab/tls-server.js';

const root = resolve(import.meta.dirname, '../..');
const KEY = 'cli-test-key-0123456789';

let lab: ReportLab;
let weak: LabTlsServer;
/** a port that never answers a connection (a filtering firewall): a check of it runs until its own bound */
let blackhole: Blackhole;
let configFile: string;
let dir: string;

beforeAll(async () => {
  lab = await startReportLab();
  // TLS 1.0 and 1.1 only: capped below A
  weak = await startTlsServer({
    cert: lab.pki.good.chain,
    key: lab.pki.good.key,
    minVersion: 'TLSv1',
    maxVersion: 'TLSv1.1',
  });
  blackhole = await startBlackhole();
  dir = mkdtempSync(join(tmpdir(), 'netdiag-cli-'));
  configFile = join(dir, 'config.json');
  writeFileSync(configFile, JSON.stringify({ ...lab.config, server: { dataDir: join(dir, 'data') } }));
}, 30_000);

afterAll(async () => {
  await blackhole?.close();
  await weak?.close();
  await lab?.close();
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The command as a shell runs it: its own process, a clean environment, stdin closed unless given. A command
 * still running after `deadlineMs` is killed (code null): the test then fails with what it printed.
 */
function netdiag(
  args: readonly string[],
  options: { stdin?: string; env?: Record<string, string>; deadlineMs?: number } = {},
): Promise<Run> {
  const child = spawn(process.execPath, ['bin/netdiag.mjs', ...args], {
    cwd: root,
    env: { PATH: process.env.PATH, NODE_EXTRA_CA_CERTS: lab.rootFile, ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  child.stdin.end(options.stdin ?? '');
  const deadline = setTimeout(() => child.kill('SIGKILL'), options.deadlineMs ?? 50_000);
  return new Promise((done) =>
    child.on('close', (code) => {
      clearTimeout(deadline);
      done({ code, stdout, stderr });
    }),
  );
}

const site = () => `https://${lab.domain}:${lab.https}/`;
const weakSite = () => `https://${lab.domain}:${weak.port}/`;
const silentSite = () => `https://${lab.domain}:${blackhole.port}/`;

describe('in process (--local, with the configuration file)', { timeout: 60_000 }, () => {
  const local = (args: readonly string[], options?: { stdin?: string; env?: Record<string, string> }) =>
    netdiag([...args, '--local', '--config', configFile], options);

  it('passes a good grade and fails a bad one with --min-grade', async () => {
    const good = await local(['tls-rating', site(), '--min-grade', 'A']);
    expect(good.stderr).toBe('');
    expect(good.code).toBe(0);
    expect(good.stdout).toMatch(/^tls-rating https:\/\/report\.lab\.test:\d+\//);
    expect(good.stdout).toMatch(/TLS grade {2}A/);

    const bad = await local(['tls-rating', weakSite(), '--min-grade', 'A', '--json']);
    expect(bad.code).toBe(1);
    const data = JSON.parse(bad.stdout);
    expect(data.grade.letter).not.toMatch(/^A/);
    // the same answer against its own letter passes
    expect((await local(['tls-rating', weakSite(), '--min-grade', data.grade.letter])).code).toBe(0);
  });

  it('prints the data as JSON, and fails on warnings only when asked to', async () => {
    const whois = await local(['whois', lab.domain, '--json']);
    expect(whois.code).toBe(0);
    expect(JSON.parse(whois.stdout)).toMatchObject({ registrar: 'Lab Registrar Ltd', matchedDomain: 'lab.test' });
    // the lab's mail has warnings (a DKIM key that does not parse; no STARTTLS on port 25 here) and nothing critical
    const mail = await local(['mailhealth-check', lab.domain]);
    expect(mail.code).toBe(0);
    expect(mail.stdout).toContain('WARNING');
    expect(mail.stdout).toContain('why');
    expect((await local(['mailhealth-check', lab.domain, '--fail-on', 'warning'])).code).toBe(1);
  });

  it('reads many targets from stdin and writes NDJSON in target order', async () => {
    const run = await local(['dns-lookup', '-', '--json'], { stdin: `${lab.domain}\n\n# a comment\nmx.lab.test\n` });
    expect(run.code).toBe(0);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.index, l.target, l.ok, l.status])).toEqual([
      [0, lab.domain, true, 200],
      [1, 'mx.lab.test', true, 200],
    ]);
    expect(lines[1].data.records.A).toEqual(['127.0.0.1']);
  });

  it('runs the report: every part of the view, exit code from all their findings', async () => {
    const run = await local(['report', lab.domain, '--view', 'mail', '--json']);
    const out = JSON.parse(run.stdout);
    expect(Object.keys(out.parts).sort()).toEqual(['dnssec', 'mail', 'registration']);
    expect(out.parts.registration).toMatchObject({ ok: true, status: 200 });
    // the lab's DNS is unsigned under the real root's anchor: the chain is bogus at the root, a critical finding
    expect(out.parts.dnssec.data.status).toBe('bogus');
    expect(run.code).toBe(1);
    const human = await local(['report', lab.domain, '--view', 'mail']);
    expect(human.stdout).toMatch(/^Report for report\.lab\.test/);
    expect(human.stdout).toMatch(/DNSSEC\s+bogus\s+broken at \./);
  });

  it("loads only the check it runs, and every one for the list of tools (NETDIAG_CLI_TIMINGS' index line)", async () => {
    const timings = { env: { NETDIAG_CLI_TIMINGS: '1' } };
    const one = await local(['tls-rating', site(), '--json'], timings);
    expect(one.code).toBe(0);
    expect(JSON.parse(one.stdout)).toMatchObject({ host: lab.domain, partial: false });
    expect(one.stderr).toMatch(/^netdiag timings: +[\d.]+ ms +\+ *[\d.]+ +index of 1 tool\(s\) \(GET \/api\/v1\)$/m);
    expect(one.stderr).toMatch(/^netdiag timings: .* check answered and printed$/m);
    const all = await local(['tools', '--json'], timings);
    const listed = (JSON.parse(all.stdout) as { tool: string }[]).map((t) => t.tool);
    expect(listed).toEqual(expect.arrayContaining(['tls-rating', 'website-health-check', 'whois']));
    expect(all.stderr).toContain(`index of ${listed.length} tool(s)`);
    // nor does it open the embedded database (jobs' and monitors' stores open at their first request)
    expect(existsSync(join(dir, 'data', 'cli', 'db'))).toBe(false);
  });

  it('gives up at --timeout: exit 2, saying so, however long the check would take', async () => {
    const run = await local(['tls-rating', silentSite(), '--timeout', '0.5']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('netdiag: gave up after 0.5 s (--timeout)\n');
    expect((await local(['dns-lookup', lab.domain, '--timeout', '0'])).stderr).toContain('--timeout takes seconds');
  });

  it('exits 2 on usage errors and on a check that could not run', async () => {
    const unknown = await local(['no-such-tool', 'x']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no tool "no-such-tool"');
    const param = await local(['tls-rating', site(), '--colour', 'yes']);
    expect(param.code).toBe(2);
    expect(param.stderr).toContain('netdiag: tls-rating takes no --colour\n');
    expect((await local(['tls-rating', site(), '--min-grade', 'Z'])).code).toBe(2);
    expect((await local(['dns-lookup', lab.domain, '--min-grade', 'A'])).code).toBe(2);
    const closed = await local(['tls-rating', `https://${lab.domain}:${await unusedPort()}/`]);
    expect(closed.code).toBe(2);
    expect(closed.stderr).toMatch(/^netdiag: tls-rating https:\/\/report\.lab\.test:\d+\/: 50[24] /);
  });
});

describe('against a running service (--url)', { timeout: 90_000 }, () => {
  let service: ReturnType<typeof startService>;
  let url: string;

  beforeAll(async () => {
    service = startService(
      { ...lab.config, server: { host: '127.0.0.1', port: 0 }, auth: { keys: [KEY] } },
      { env: { NODE_EXTRA_CA_CERTS: lab.rootFile } },
    );
    url = `http://${await service.listening}`;
  }, 60_000);
  afterAll(async () => {
    service?.child.kill('SIGTERM');
    await service?.exited;
  });
  // what the service logged, when a test of this block fails: the reason a command waited is there
  beforeEach(({ onTestFailed }) =>
    onTestFailed(() => {
      const log = service.output().trim().split('\n').slice(-60).join('\n');
      console.error(`the service's last log lines:\n${log}\n${service.errors()}`);
    }),
  );

  const remote = (args: readonly string[], options?: { stdin?: string; key?: string | null }) =>
    netdiag([...args, '--url', url], {
      ...options,
      env: options?.key === null ? {} : { NETDIAG_API_KEY: options?.key ?? KEY },
    });

  it('passes a good grade and fails a bad one', async () => {
    const good = await remote(['tls-rating', site(), '--min-grade', 'A']);
    expect(good.stderr).toBe('');
    expect(good.code).toBe(0);
    expect((await remote(['tls-rating', weakSite(), '--min-grade', 'A'])).code).toBe(1);
  });

  it('sends many targets as one job and prints its results as NDJSON', async () => {
    const targets = join(dir, 'targets.txt');
    writeFileSync(targets, `${lab.domain}\nmx.lab.test\n`);
    const run = await remote(['mx-lookup', '--file', targets]);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.index, l.target, l.ok])).toEqual([
      [0, lab.domain, true],
      [1, 'mx.lab.test', true],
    ]);
    expect(lines[0].data.hosts[0].exchange).toBe('mx.lab.test');
  });

  it('cancels the job it submitted when it gives up at --timeout', async () => {
    const targets = join(dir, 'silent-targets.txt');
    writeFileSync(targets, `${silentSite()}\n${silentSite()}\n${silentSite()}\n`);
    const run = await remote(['tls-rating', '--file', targets, '--timeout', '1']);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('netdiag: gave up after 1 s (--timeout)\n');
    const id = /^netdiag: job (\S+) cancelled$/m.exec(run.stderr)?.[1];
    expect(id, run.stderr).toBeDefined();
    const job = (await (await fetch(`${url}/api/v1/jobs/${id}`, { headers: { 'x-api-key': KEY } })).json()) as {
      data: { status: string };
    };
    expect(job.data.status).toBe('cancelled');
  });

  it('exits 2 without a key, saying which', async () => {
    const run = await remote(['whois', lab.domain], { key: null });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^netdiag: whois report\.lab\.test: 401 /);
  });
});
