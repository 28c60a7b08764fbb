/**
 * Debian's unbound, run by tests on 127.0.0.1 in a temporary directory, in one of two roles:
 *
 * - authoritative: serves zone files (auth-zone, RFC 8806 style) and answers nothing else. Every
 *   name outside its zones is refused by a local zone on "." (refuse), so it never recurses.
 * - validating resolver: trust anchors given by the test (a test zone's DS, never the real root), a
 *   stub zone for "." and for each test zone pointing at a loopback authoritative server, so neither
 *   the built-in root hints nor any public address is ever used; `do-not-query-localhost: no` lets it
 *   query loopback at all.
 *
 * Both run in the foreground (-d), without chroot, user switch, pid file or remote control, log to a
 * bounded buffer, and are stopped with SIGTERM (SIGKILL after two seconds).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import dgram from 'node:dgram';
import { accessSync, constants, writeFileSync } from 'node:fs';
import net from 'node:net';
import { delimiter, join } from 'node:path';
import dnsPacket from 'dns-packet';
import type { HostPort } from '../../src/config.js';

const HOST = '127.0.0.1';
const START_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 2_000;
const MAX_LOG_BYTES = 64 * 1024;
const START_ATTEMPTS = 5;

/** Where a program is, searching PATH and the sbin directories (unbound lives in /usr/sbin); null when absent. */
export function findProgram(name: string): string | null {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/sbin', '/usr/local/sbin'];
  for (const dir of dirs) {
    if (dir === '') continue;
    const path = join(dir, name);
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not here
    }
  }
  return null;
}

/** The programs the DNSSEC lab needs that are not installed (CI installs unbound and ldnsutils). */
export function missingDnssecPrograms(): string[] {
  return ['unbound', 'ldns-keygen', 'ldns-signzone'].filter((p) => findProgram(p) === null);
}

export interface UnboundServer {
  readonly address: HostPort;
  /** what unbound logged so far (at most 64 KiB) */
  log(): string;
  close(): Promise<void>;
}

export interface AuthZone {
  /** the zone's origin, e.g. "secure.lab" */
  name: string;
  zonefile: string;
}

export interface StubZone {
  name: string;
  server: HostPort;
}

/** Where an authoritative server listens when a lab needs several on one port (one loopback address each). */
export interface ListenAt {
  readonly host: string;
  readonly port: number;
  /** names its configuration file, unique within `dir` */
  readonly role: string;
}

/** Serves `zones` authoritatively; refuses everything else. On a free port of 127.0.0.1 unless `at` says where. */
export async function startUnboundAuthoritative(
  dir: string,
  zones: readonly AuthZone[],
  at?: ListenAt,
): Promise<UnboundServer> {
  const [first] = zones;
  if (first === undefined) throw new Error('an authoritative unbound needs at least one zone');
  // refuse every name outside the zones, unless the root itself is served (a lab with its own root zone)
  const servesRoot = zones.some((z) => fqdn(z.name) === '.');
  const body = [
    ...(servesRoot ? [] : ['  local-zone: "." refuse']),
    ...zones.map((z) => `  local-zone: "${fqdn(z.name)}" transparent`),
    ...zones.flatMap((z) => [
      'auth-zone:',
      `  name: "${fqdn(z.name)}"`,
      `  zonefile: "${z.zonefile}"`,
      '  for-downstream: yes',
      '  for-upstream: no',
      '  fallback-enabled: no',
    ]),
  ];
  const probe = { name: first.name, recursionDesired: false };
  if (at) return startUnboundOnce(dir, at.role, body, probe, at.port, at.host);
  return startUnbound(dir, 'authoritative', body, probe);
}

/** A validating resolver with `trustAnchors` (DS records in presentation format) and stub zones. */
export async function startUnboundResolver(
  dir: string,
  options: { trustAnchors: readonly string[]; stubs: readonly StubZone[] },
): Promise<UnboundServer> {
  const [first] = options.stubs;
  if (first === undefined) throw new Error('a resolver without stub zones would use the real root hints');
  const stubs = options.stubs.some((s) => fqdn(s.name) === '.')
    ? options.stubs
    : [{ name: '.', server: first.server }, ...options.stubs];
  const body = [
    '  module-config: "validator iterator"',
    '  do-not-query-localhost: no',
    '  outgoing-interface: 127.0.0.1',
    // RFC 8145 key-tag signalling and RFC 8509 sentinel queries would only add questions to the lab.
    '  trust-anchor-signaling: no',
    '  root-key-sentinel: no',
    '  prefetch: no',
    '  val-log-level: 2',
    ...options.trustAnchors.map((ds) => `  trust-anchor: "${ds}"`),
    ...stubs.flatMap((s) => [
      'stub-zone:',
      `  name: "${fqdn(s.name)}"`,
      `  stub-addr: ${s.server.host}@${s.server.port}`,
    ]),
  ];
  return startUnbound(dir, 'resolver', body, { name: first.name, recursionDesired: true });
}

/**
 * Starts unbound on a port found free a moment before. Another test's port-0 server can take that port
 * in between (unbound then exits, unable to bind), so a start that fails that way is tried again on a
 * new port.
 */
async function startUnbound(
  dir: string,
  role: string,
  serverAndZones: readonly string[],
  probe: { name: string; recursionDesired: boolean },
): Promise<UnboundServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startUnboundOnce(dir, role, serverAndZones, probe, await freePort());
    } catch (e) {
      if (attempt >= START_ATTEMPTS || !isAddressInUse(e)) throw e;
    }
  }
}

function isAddressInUse(e: unknown): boolean {
  const text = e instanceof Error ? e.message : String(e);
  return /address already in use|EADDRINUSE|can't bind socket/i.test(text);
}

async function startUnboundOnce(
  dir: string,
  role: string,
  serverAndZones: readonly string[],
  probe: { name: string; recursionDesired: boolean },
  port: number,
  host = HOST,
): Promise<UnboundServer> {
  const program = findProgram('unbound');
  if (program === null) throw new Error('unbound is not installed (Debian package "unbound")');
  const config = join(dir, `unbound-${role}.conf`);
  const [serverOptions, zoneSections] = splitSections(serverAndZones);
  writeFileSync(
    config,
    [
      'server:',
      `  interface: ${host}`,
      `  port: ${port}`,
      '  do-ip6: no',
      '  num-threads: 1',
      '  so-reuseport: no',
      '  username: ""',
      '  chroot: ""',
      `  directory: "${dir}"`,
      '  pidfile: ""',
      '  use-syslog: no',
      '  logfile: ""',
      '  verbosity: 1',
      ...serverOptions,
      ...zoneSections,
      'remote-control:',
      '  control-enable: no',
      '',
    ].join('\n'),
  );

  const child = spawn(program, ['-d', '-c', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const collect = (chunk: Buffer) => {
    if (log.length < MAX_LOG_BYTES) log += chunk.toString('utf8').slice(0, MAX_LOG_BYTES - log.length);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('error', (e) => collect(Buffer.from(`spawn error: ${e.message}\n`)));

  const server: UnboundServer = {
    address: { host, port },
    log: () => log,
    close: () => stop(child, exited),
  };
  try {
    await waitUntilAnswering(server.address, probe, exited);
  } catch (e) {
    await server.close();
    throw new Error(`unbound (${role}) did not start: ${(e as Error).message}\n${log}`);
  }
  return server;
}

/** Lines before the first section header belong to "server:"; the rest are whole sections. */
function splitSections(lines: readonly string[]): [string[], string[]] {
  const firstSection = lines.findIndex((l) => !l.startsWith(' '));
  return firstSection < 0 ? [[...lines], []] : [lines.slice(0, firstSection), lines.slice(firstSection)];
}

async function stop(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const forced = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve();
    }, STOP_TIMEOUT_MS);
  });
  await Promise.race([exited, forced]);
  clearTimeout(timer);
  await exited;
}

/** A port free for both UDP and TCP on loopback right now (unbound binds both). */
export async function freePort(): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await portFreeForBoth();
    } catch (e) {
      // the UDP port's TCP twin is taken by another server: ask the kernel for another UDP port
      if (attempt >= START_ATTEMPTS * 4 || !isAddressInUse(e)) throw e;
    }
  }
}

async function portFreeForBoth(): Promise<number> {
  const udp = dgram.createSocket('udp4');
  await new Promise<void>((resolve, reject) => {
    udp.once('error', reject);
    udp.bind(0, HOST, () => resolve());
  });
  const { port } = udp.address();
  const tcp = net.createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      tcp.once('error', reject);
      tcp.listen(port, HOST, () => resolve());
    });
  } finally {
    await new Promise<void>((resolve) => (tcp.listening ? tcp.close(() => resolve()) : resolve()));
    await new Promise<void>((resolve) => udp.close(() => resolve()));
  }
  return port;
}

/** Sends an SOA question every 100 ms until any answer comes back, the process exits, or ten seconds pass. */
async function waitUntilAnswering(
  address: HostPort,
  probe: { name: string; recursionDesired: boolean },
  exited: Promise<void>,
): Promise<void> {
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + START_TIMEOUT_MS;
  const socket = dgram.createSocket('udp4');
  try {
    socket.on('error', () => {}); // an unconnected socket reports nothing useful here; the loop times out
    await new Promise<void>((resolve) => socket.bind(0, HOST, () => resolve()));
    let answered = false;
    socket.on('message', () => (answered = true));
    const query = dnsPacket.encode({
      type: 'query',
      id: 1,
      flags: probe.recursionDesired ? dnsPacket.RECURSION_DESIRED : 0,
      questions: [{ type: 'SOA', name: probe.name, class: 'IN' }],
    });
    while (!answered) {
      if (gone) throw new Error('the process exited');
      if (Date.now() > deadline)
        throw new Error(`no answer on ${address.host}:${address.port} within ${START_TIMEOUT_MS} ms`);
      socket.send(query, address.port, address.host);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await new Promise<void>((resolve) => socket.close(() => resolve()));
  }
}

function fqdn(name: string): string {
  return name === '.' || name.endsWith('.') ? name : `${name}.`;
}
