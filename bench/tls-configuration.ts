/**
 * tls-configuration against a loopback lab server that speaks all four versions (TLS 1.0 to 1.3,
 * "DEFAULT:@SECLEVEL=0"), next to the same per-version probing done by hand with
 * `openssl s_client`, one process per version, one after the other. The check runs six
 * handshakes (main, without SNI, four pinned versions) in parallel in one process; the
 * ratio shows what the parallel, in-process design buys over a sequential shell loop.
 * Loopback only.
 */
import { spawn } from 'node:child_process';
import { buildConfig } from '../src/config.js';
import { createCheckContext } from '../src/loaders/context.js';
import { runTlsConfiguration } from '../src/checks/tls-http/tls-configuration/run.js';
import { createServices } from '../src/create-services.js';
import { silentLogger } from '../src/log.js';
import { rr, startDnsLab } from '../test/lab/dns-server.js';
import { labPki } from '../test/lab/pki.js';
import { startTlsServer } from '../test/lab/tls-server.js';

const ROUNDS = 15;
const NAME = 'bench.lab.test';
const OPENSSL_VERSION_FLAGS = ['-tls1_3', '-tls1_2', '-tls1_1', '-tls1'] as const;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** One `openssl s_client` run (no shell; stdin at EOF so it leaves right after the handshake). */
function sClient(port: number, versionFlag: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'openssl',
      ['s_client', '-connect', `127.0.0.1:${port}`, '-servername', NAME, versionFlag, '-cipher', 'DEFAULT@SECLEVEL=0'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('latin1')));
    child.stderr.resume();
    child.once('error', reject);
    child.once('close', () => {
      // "Protocol  : TLSv1.2" (TLS 1.2 and below) or "New, TLSv1.3, Cipher is ..." (all versions)
      if (!/New, TLSv1(\.\d)?, Cipher is /.test(output))
        reject(new Error(`openssl s_client ${versionFlag} did not complete a handshake`));
      else resolve();
    });
  });
}

export async function benchTlsConfiguration(): Promise<void> {
  const pki = await labPki();
  const server = await startTlsServer({
    cert: pki.good.chain,
    key: pki.good.key,
    minVersion: 'TLSv1',
    ciphers: 'DEFAULT:@SECLEVEL=0',
  });
  const dns = await startDnsLab({ authoritative: false, records: [rr.a(NAME, '127.0.0.1')] });
  const services = await createServices(
    buildConfig({
      server: { dataDir: '/tmp/netdiag-bench' },
      dns: { system: [`127.0.0.1:${dns.port}`] },
      targets: { allow: ['127.0.0.0/8'] },
    }),
    silentLogger,
    { connections: { tlsCa: pki.root.cert } },
  );
  try {
    const check = async (): Promise<number> => {
      // a fresh context per run: per-request loaders must not answer from the previous run
      const ctx = createCheckContext(services, AbortSignal.timeout(20_000));
      const t0 = performance.now();
      const data = await runTlsConfiguration(ctx, { domain: NAME, port: server.port });
      const took = performance.now() - t0;
      if (data.protocols.some((p) => p.result !== 'supported'))
        throw new Error(`lab server not fully supported: ${JSON.stringify(data.protocols)}`);
      return took;
    };
    const openssl = async (): Promise<number> => {
      const t0 = performance.now();
      for (const flag of OPENSSL_VERSION_FLAGS) await sClient(server.port, flag);
      return performance.now() - t0;
    };

    await check(); // warm-up: JIT, the process-wide local TLS support probe, DNS cache
    await openssl();
    const checkTimes: number[] = [];
    const opensslTimes: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      checkTimes.push(await check());
      opensslTimes.push(await openssl());
    }
    const c = median(checkTimes);
    const o = median(opensslTimes);
    console.log('\n## tls-configuration vs openssl s_client (loopback lab server, TLS 1.0–1.3)');
    console.log(
      `runTlsConfiguration (6 handshakes in parallel, in process): median ${c.toFixed(1)} ms over ${ROUNDS} runs`,
    );
    console.log(
      `openssl s_client -tls1_3/-tls1_2/-tls1_1/-tls1, sequential: median ${o.toFixed(1)} ms over ${ROUNDS} runs`,
    );
    console.log(`ratio: the check takes ${(c / o).toFixed(2)}× the time of the openssl loop`);
  } finally {
    await services.close();
    await dns.close();
    await server.close();
  }
}
