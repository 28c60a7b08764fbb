/**
 * dnssec-chain against the DNSSEC chain lab (issue 28): a secure chain of depth 3 (root → lab →
 * secure.lab) through the lab's validating resolver behind a proxy that holds every answer 50 ms.
 * The chain needs DS and DNSKEY of each cut and the question itself, none depending on another
 * (the names are known from the question), so its critical path is one question: the target is
 * at most 1.3 × 50 ms. `delv +vtrace` (BIND's validating lookup, which fetches each key and DS as
 * its validator needs them) runs on the same name through the same proxy in the same run, for
 * comparison. Also printed: the verification cost per chain (signatures verified, CPU ms).
 * The resolver's cache is warm after the first run, so every question costs the proxy's delay.
 */
import { execFile } from 'node:child_process';
import dgram from 'node:dgram';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { buildConfig } from '../src/config.js';
import { runDnssecChain } from '../src/checks/dns/dnssec-chain/run.js';
import { createServices } from '../src/create-services.js';
import { createCheckContext } from '../src/loaders/context.js';
import { silentLogger } from '../src/log.js';
import { DNSSEC_CHAIN_ZONES, startDnssecChainLab } from '../test/lab/dnssec-chain-lab.js';
import { findProgram } from '../test/lab/unbound.js';

const ANSWER_DELAY_MS = 50;
const RUNS = 15;
const TARGET_RATIO = 1.3;
const run = promisify(execFile);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** A UDP relay on loopback that forwards each query to `upstreamPort` and holds each answer `delayMs`. */
async function startDelayingProxy(
  upstreamPort: number,
  delayMs: number,
): Promise<{ port: number; close(): Promise<void> }> {
  const front = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => front.bind(0, '127.0.0.1', () => resolve()));
  const sockets = new Set<dgram.Socket>();
  front.on('message', (query, client) => {
    const back = dgram.createSocket('udp4');
    sockets.add(back);
    back.on('message', (answer) => {
      setTimeout(() => {
        front.send(answer, client.port, client.address);
        sockets.delete(back);
        back.close();
      }, delayMs);
    });
    back.send(query, upstreamPort, '127.0.0.1');
  });
  return {
    port: front.address().port,
    close: async () => {
      for (const s of sockets) s.close();
      await new Promise<void>((resolve) => front.close(() => resolve()));
    },
  };
}

export async function benchDnssecChain(): Promise<void> {
  console.log(`\n## dnssec-chain, root → lab → secure.lab, resolver answers held ${ANSWER_DELAY_MS} ms`);
  const lab = await startDnssecChainLab();
  const proxy = await startDelayingProxy(lab.resolver.port, ANSWER_DELAY_MS);
  const dir = mkdtempSync(join(tmpdir(), 'netdiag-bench-dnssec-'));
  const services = await createServices(
    buildConfig({
      server: { dataDir: join(dir, 'data') },
      dns: { system: [`127.0.0.1:${proxy.port}`], timeoutMs: 2000 },
      dnssec: { trustAnchors: [lab.trustAnchor], rootServers: ['127.0.0.1:9'] },
    }),
    silentLogger,
  );
  try {
    const name = DNSSEC_CHAIN_ZONES.secure;
    const times: number[] = [];
    const cost = { signatures: 0, cpuMs: [] as number[] };
    let questions = 0;
    for (let i = 0; i < RUNS + 1; i++) {
      services.dnsCache.clear();
      const ctx = createCheckContext(services, AbortSignal.timeout(10_000));
      const t0 = performance.now();
      const result = await runDnssecChain(ctx, name, 'A');
      const elapsed = performance.now() - t0;
      if (result.status !== 'secure') throw new Error(`expected a secure chain, got ${result.status}`);
      // the first run fills the resolver's cache: not measured
      if (i === 0) continue;
      times.push(elapsed);
      questions = result.questions;
      cost.signatures = result.verification.signaturesVerified;
      cost.cpuMs.push(result.verification.cpuMs);
    }
    const ours = median(times);
    const criticalPath = ANSWER_DELAY_MS;
    console.log(
      `dnssec-chain: median ${ours.toFixed(1)} ms for ${questions} questions; critical path 1 question = ${criticalPath} ms; ratio ${(ours / criticalPath).toFixed(2)}× (target ≤ ${TARGET_RATIO}×)`,
    );
    console.log(
      `verification per chain: ${cost.signatures} signatures, median ${median(cost.cpuMs).toFixed(2)} ms CPU`,
    );

    const delv = findProgram('delv');
    if (delv === null) {
      console.log('delv: not installed (Debian package bind9-dnsutils): no comparison');
      return;
    }
    const anchorFile = join(dir, 'anchor.conf');
    const [owner, , , tag, algorithm, digestType, ...digest] = lab.trustAnchor.split(/\s+/);
    writeFileSync(
      anchorFile,
      `trust-anchors { "${owner}" static-ds ${tag} ${algorithm} ${digestType} "${digest.join('')}"; };\n`,
    );
    const delvTimes: number[] = [];
    let delvFetches = 0;
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const { stdout, stderr } = await run(
        delv,
        ['@127.0.0.1', '-p', String(proxy.port), '-a', anchorFile, '+vtrace', name, 'A'],
        { timeout: 20_000 },
      );
      delvTimes.push(performance.now() - t0);
      if (!/fully validated/.test(stdout)) throw new Error(`delv did not validate ${name}:\n${stdout}\n${stderr}`);
      delvFetches = (stderr.match(/fetch/gi) ?? []).length;
    }
    const delvMedian = median(delvTimes);
    console.log(
      `delv +vtrace (same name, same proxy): median ${delvMedian.toFixed(1)} ms (process start included; ${delvFetches} fetch lines in its trace); dnssec-chain / delv = ${(ours / delvMedian).toFixed(2)}`,
    );
  } finally {
    await services.close();
    await proxy.close();
    await lab.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
