/**
 * The lab of bench/cli.ts kept running, for measuring the command by hand (docs/cli.md "Performance": a CPU
 * profile, `farm-bench` of two builds side by side): the report lab in a process of its own, its site behind
 * the latency relay, a configuration file for the command and the lab root for NODE_EXTRA_CA_CERTS, written
 * into the directory given as the first argument, with the site's address in `site` and a script `env.sh`
 * to source. With `--service`, a running service against the same lab too (its address in `service`).
 * Serves until SIGTERM or SIGINT, sent to this process itself: start it as `node --import tsx
 * bench/cli-lab.ts <dir> &` and stop it by its process id (a wrapper such as npx does not pass the signal
 * on, and the lab would outlive the shell). Loopback only: run it inside the loopback namespace, with the
 * commands it serves.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startService } from '../test/helpers/process.js';
import { reportLabConfig } from '../test/lab/report-lab.js';
import { startLatencyRelay } from './cli-latency-relay.js';
import { reportLabProcess } from './report-app.js';

const RTT_MS = Number(process.env.BENCH_CLI_RTT_MS ?? 30);
const DNS_MS = RTT_MS > 0 ? 20 : 0;
export const CLI_LAB_KEY = 'bench-cli-key-0123456789';

const dir = resolve(process.argv[2] ?? 'cli-lab');
mkdirSync(dir, { recursive: true });
const { lab, stop } = await reportLabProcess({ dnsMs: DNS_MS });
const relay = RTT_MS > 0 ? await startLatencyRelay(lab.https, RTT_MS) : null;
const config = reportLabConfig(lab);
const configFile = join(dir, 'config.json');
writeFileSync(configFile, JSON.stringify({ ...config, server: { dataDir: join(dir, 'data') } }));
const rootFile = join(dir, 'lab-root.pem');
writeFileSync(rootFile, lab.rootCert);
const site = `https://${lab.domain}:${relay?.port ?? lab.https}/`;
writeFileSync(join(dir, 'site'), site);
const service = process.argv.includes('--service')
  ? startService(
      { ...config, server: { host: '127.0.0.1', port: 0 }, auth: { keys: [CLI_LAB_KEY] }, quota: { credits: 1e6 } },
      { env: { NODE_EXTRA_CA_CERTS: rootFile } },
    )
  : null;
const serviceAddress = service ? `http://${await service.listening}` : '';
writeFileSync(join(dir, 'service'), serviceAddress);
writeFileSync(
  join(dir, 'env.sh'),
  `export NODE_EXTRA_CA_CERTS='${rootFile}' SITE='${site}' CONFIG='${configFile}' SERVICE='${serviceAddress}' KEY='${CLI_LAB_KEY}'\n`,
);
console.log(`cli lab ready in ${dir}: ${site}${service ? `, service ${serviceAddress}` : ''}`);

const close = async () => {
  if (service) {
    service.child.kill('SIGTERM');
    await service.exited;
  }
  await relay?.close();
  stop();
  process.exit(0);
};
process.on('SIGTERM', () => void close());
process.on('SIGINT', () => void close());
