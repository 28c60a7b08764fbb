/**
 * tls-rating against a local nginx that accepts many suites (TLS 1.0 to 1.3; ECDHE, DHE and RSA key
 * exchange; AES, ChaCha20, Camellia, ARIA), next to testssl.sh enumerating the same server's suites per
 * protocol (`testssl -e -p`) in the same run. Prints both wall times, their ratio (target: ≤ 0.05×),
 * the suites found and the handshakes per rating (goal: no more than one per suite and version, plus one
 * per group). Loopback only; skipped with a note when nginx or testssl.sh (Debian's `testssl.sh`
 * package) is not installed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { CIPHER_SUITES, usableWith } from '../src/checks/tls-http/tls-rating/cipher-suites.js';
import { runTlsRating } from '../src/checks/tls-http/tls-rating/run.js';
import { localOffer } from '../src/probes/tls/local-offer.js';
import { buildConfig } from '../src/config.js';
import { createServices } from '../src/create-services.js';
import { createCheckContext } from '../src/loaders/context.js';
import { silentLogger } from '../src/log.js';
import { rr, startDnsLab } from '../test/lab/dns-server.js';
import { createRatingPki } from '../test/lab/rating-pki.js';
import { startNginxTls } from '../test/lab/nginx-tls-server.js';

const NAME = 'rating.bench.test';
const ROUNDS = 5;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function testsslBinary(): string | null {
  for (const path of ['/usr/bin/testssl', 'testssl', 'testssl.sh']) {
    if (spawnSync(path, ['--version'], { stdio: 'ignore' }).status === 0) return path;
  }
  return null;
}

/** Runs testssl.sh -e -p against the server: wall time and the number of suite lines it listed. */
function testssl(binary: string, port: number): Promise<{ ms: number; output: string }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(
      binary,
      ['-e', '-p', '--warnings', 'off', '--color', '0', '--quiet', '--sneaky', '--ip', '127.0.0.1', `${NAME}:${port}`],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('latin1')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('latin1')));
    child.once('error', reject);
    child.once('close', () => resolve({ ms: performance.now() - t0, output }));
  });
}

export async function benchTlsRating(): Promise<void> {
  console.log('\n## tls-rating vs testssl.sh -e -p (local nginx, TLS 1.0–1.3, many suites)');
  const testsslPath = testsslBinary();
  if (testsslPath === null) {
    console.log('skipped: testssl.sh is not installed (apt-get install testssl.sh)');
    return;
  }
  const pki = createRatingPki();
  const leaf = pki.leaf({ names: [NAME], key: 'rsa2048' });
  const server = await startNginxTls({
    chain: leaf.chain,
    key: leaf.key,
    protocols: 'TLSv1 TLSv1.1 TLSv1.2 TLSv1.3',
    ciphers: 'ALL:!aNULL:!eNULL:!PSK:!SRP:!DSS:@SECLEVEL=0',
    dhGroup: 'ffdhe2048',
    hsts: 'max-age=31536000',
  });
  if (server === null) {
    console.log('skipped: nginx is not installed (apt-get install nginx-light)');
    pki.close();
    return;
  }
  const { port } = server;
  const dns = await startDnsLab({ authoritative: false, records: [rr.a(NAME, '127.0.0.1')] });
  const services = await createServices(
    buildConfig({
      server: { dataDir: '/tmp/netdiag-bench' },
      dns: { system: [`127.0.0.1:${dns.port}`] },
      targets: { allow: ['127.0.0.0/8'] },
    }),
    silentLogger,
    { connections: { tlsCa: pki.root } },
  );
  try {
    const rate = async () => {
      // a fresh context per run: per-request loaders must not answer from the previous run
      const ctx = createCheckContext(services, AbortSignal.timeout(60_000));
      const t0 = performance.now();
      const data = await runTlsRating(ctx, { domain: NAME, port });
      return { ms: performance.now() - t0, data };
    };
    await rate(); // warm-up: JIT, the local offer, DNS cache
    const times: number[] = [];
    let last = await rate();
    times.push(last.ms);
    for (let i = 1; i < ROUNDS; i++) {
      last = await rate();
      times.push(last.ms);
    }
    const { data } = last;
    const ts = await testssl(testsslPath, port);
    const rating = median(times);
    const versions = data.protocols.filter((p) => p.result === 'supported').map((p) => p.version);
    console.log(
      `tls-rating: median ${rating.toFixed(0)} ms over ${ROUNDS} runs; grade ${data.grade.letter} (score ${data.grade.score}); ${data.cipherSuites.length} accepted suite×version pairs over ${versions.join(', ')}; groups ${data.groups.join(', ')}; partial ${data.partial}`,
    );
    // the goal's bound: every suite this side can offer (by library or by hand) with every supported version, plus every group
    const offer = await localOffer();
    const suiteVersionPairs = versions.reduce(
      (sum, v) => sum + CIPHER_SUITES.filter((suite) => usableWith(suite, v)).length,
      0,
    );
    console.log(
      `handshakes per rating: ${data.handshakes}, against a goal of at most ${suiteVersionPairs + offer.groups.length} (${suiteVersionPairs} suite×version pairs that can be offered + ${offer.groups.length} groups); ${data.cipherSuites.length} suite×version pairs and ${data.groups.length} groups accepted`,
    );
    const testsslSuites = (ts.output.match(/^\s*x[0-9a-f]{2,6}\s/gim) ?? []).length;
    console.log(`testssl.sh -e -p: ${ts.ms.toFixed(0)} ms (${testsslSuites} suite lines listed)`);
    console.log(`ratio: tls-rating takes ${(rating / ts.ms).toFixed(3)}× the time of testssl.sh (target ≤ 0.05×)`);
  } finally {
    await server.close();
    await services.close();
    await dns.close();
    pki.close();
  }
}
