/**
 * An in-process app against the report lab for the benchmarks (test/lab/report-lab.ts), served on a real
 * loopback socket: the lab's upstreams, and every other upstream at a closed loopback port (as the tests'
 * apps have them), so that nothing leaves loopback.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type App } from '../src/app.js';
import { buildConfig } from '../src/config.js';
import { DEFAULT_PUBLIC_RESOLVERS } from '../src/config/public-resolvers.js';
import { createServices } from '../src/create-services.js';
import { silentLogger } from '../src/log.js';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import {
  reportLabConfig,
  reportLabOverrides,
  type LabLatency,
  type ReportLabAddresses,
} from '../test/lab/report-lab.js';
import { serveOnLoopback } from '../test/browser/chromium.js';

export const BENCH_KEY = 'bench-report-key-0123456789';
const NOWHERE = '127.0.0.1:9';

/** The report lab in a child process (bench/report-lab-child.ts): its addresses, and how to stop it. */
export async function reportLabProcess(latency: LabLatency): Promise<{ lab: ReportLabAddresses; stop(): void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/report-lab-child.ts', JSON.stringify(latency)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const [line] = await new Promise<string[]>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (l) => resolve([l]));
    child.once('exit', (code) => reject(new Error(`the report lab exited (${code})`)));
  });
  return { lab: JSON.parse(line!) as ReportLabAddresses, stop: () => child.stdin.end() };
}

/** When the app's last answer was received, when each part of it (by label) left it, and when its end did. */
export interface PartsLeaving {
  received: number;
  /** when the app gave its Response (the headers leave then) */
  answered: number;
  left: Map<string, number>;
  ended: number;
}

/**
 * The app's answers with a record of when each part leaves it (performance.now()): the body is read on its
 * way to the socket, so that a bench can tell the server's time from the client's.
 */
function recordingParts(app: App, record: PartsLeaving): App {
  return {
    ...app,
    async fetch(request, server) {
      const received = performance.now();
      const response = await app.fetch(request, server);
      if (!response.body || !/^\/(graphql|api\/)/.test(new URL(request.url).pathname)) return response;
      record.received = received;
      record.answered = performance.now();
      record.left = new Map();
      record.ended = Number.NaN;
      const decoder = new TextDecoder();
      const body = response.body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            const at = performance.now();
            for (const m of decoder.decode(chunk, { stream: true }).matchAll(/"label":"([a-z-]+)"/g)) {
              if (!record.left.has(m[1]!)) record.left.set(m[1]!, at);
            }
            controller.enqueue(chunk);
          },
          flush() {
            record.ended = performance.now();
          },
        }),
      );
      return new Response(body, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    },
  };
}

/** An app against the lab, on a loopback socket. */
export async function serveReportLab(lab: ReportLabAddresses) {
  const dataDir = mkdtempSync(join(tmpdir(), 'netdiag-bench-report-'));
  const config = buildConfig({
    ...reportLabConfig(lab),
    server: { dataDir },
    auth: { keys: [BENCH_KEY] },
    quota: { credits: 1_000_000 },
    dns: {
      ...reportLabConfig(lab).dns,
      publicResolvers: DEFAULT_PUBLIC_RESOLVERS.map((r) => ({ ...r, address: NOWHERE })),
    },
    dnssec: { rootServers: [NOWHERE] },
    ipInfo: { baseUrl: 'http://127.0.0.1:9' },
    rdap: { enabled: false },
    admission: { maxEventLoopDelayMs: 0 },
  });
  const services = await createServices(config, silentLogger, reportLabOverrides(lab, dataDir));
  const parts: PartsLeaving = { received: 0, answered: 0, left: new Map(), ended: 0 };
  const served = await serveOnLoopback(recordingParts(createApp(services), parts));
  return {
    origin: served.origin,
    /** the last answer in parts: when it was received and each part left, in this process's performance.now() */
    parts,
    async close() {
      await served.close();
      await services.close();
    },
  };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * The same app in a child process (./report-app-child.ts): its origin, its record of the last answer in
 * parts (read when asked), and how to close it.
 */
export async function serveReportLabProcess(lab: ReportLabAddresses): Promise<{
  origin: string;
  parts(): Promise<PartsLeaving>;
  close(): Promise<void>;
}> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/report-app-child.ts', JSON.stringify(lab)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const next = () =>
    new Promise<string>((resolve, reject) => {
      const exited = (code: number | null) => reject(new Error(`the report app exited (${code})`));
      child.once('exit', exited);
      lines.once('line', (line) => {
        child.off('exit', exited);
        resolve(line);
      });
    });
  const { origin } = JSON.parse(await next()) as { origin: string };
  return {
    origin,
    async parts() {
      const answer = next();
      child.stdin.write('parts\n');
      const { left, ...times } = JSON.parse(await answer) as Omit<PartsLeaving, 'left'> & { left: [string, number][] };
      return { ...times, left: new Map(left) };
    },
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin.write('close\n');
      await exited;
    },
  };
}
