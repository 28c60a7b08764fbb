/**
 * `npm run bench`: every benchmark, printed as figures. Loopback only.
 * BENCH_DURATION_MS sets the measuring time of each load run (default 5000).
 */
import { benchAbuse } from './abuse.js';
import { benchLoadMix } from './load-mix.js';
import { benchDnsLookup } from './dns.js';
import { benchDnssecChain } from './dnssec-chain.js';
import { benchMailhealth } from './mailhealth.js';
import { benchMyIp } from './my-ip.js';
import { benchParsers } from './parsers.js';
import { benchStartup } from './startup.js';
import { benchWarmStart } from './warm-start.js';
import { benchPropagation } from './propagation.js';
import { benchTlsConfiguration } from './tls-configuration.js';
import { benchTlsRating } from './tls-rating.js';
import { benchHttpRating } from './http-rating.js';
import { benchJobs } from './jobs.js';
import { benchJobsHostile } from './jobs-hostile.js';
import { benchMonitorsStore } from './monitors-store.js';
import { benchMonitors } from './monitors.js';
import { benchReport } from './report.js';
import { benchCli } from './cli.js';

const durationMs = Number(process.env.BENCH_DURATION_MS ?? 5000);

await benchMyIp(durationMs);
await benchDnsLookup();
await benchPropagation();
await benchDnssecChain();
await benchTlsConfiguration();
await benchTlsRating();
await benchHttpRating();
await benchJobs();
await benchJobsHostile();
await benchMonitorsStore();
await benchMonitors();
await benchMailhealth();
await benchReport();
await benchCli();
await benchAbuse();
await benchParsers();
await benchStartup();
await benchWarmStart();
await benchLoadMix(Number(process.env.BENCH_LOAD_MS ?? 30_000), Number(process.env.BENCH_LOAD_CLIENTS ?? 200));
