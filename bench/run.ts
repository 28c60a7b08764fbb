/**
 * `npm run bench`: every benchmark, printed as figures. Loopback only.
 * BENCH_DURATION_MS sets the measuring time of each load run (default 5000).
 */
import { benchMyIp } from './my-ip.js';

const durationMs = Number(process.env.BENCH_DURATION_MS ?? 5000);

await benchMyIp(durationMs);
