/**
 * The DNS lab of bench/jobs.ts in a process of its own (loopback only): in the service's process its
 * answers would share the one event loop with the job it measures. Prints `port <n>` once listening; stops
 * when its parent closes stdin. argv[2]: the number of `n<i>.test` names (each an MX and its address).
 */
import { rr, startDnsLab } from '../test/lab/dns-server.js';

const names = Number(process.argv[2] ?? 1000);
const records = [];
// TTL 0: no answer is cached, so every item and call asks the lab
for (let i = 0; i < 40; i++)
  records.push(rr.a(`probe${i}.test`, '192.0.2.1', 0), rr.mx(`probe${i}.test`, 10, 'mx.probe.test', 0));
for (let i = 0; i < names; i++)
  records.push(rr.mx(`n${i}.test`, 10, `mx.n${i}.test`, 0), rr.a(`mx.n${i}.test`, '192.0.2.2', 0));
const lab = await startDnsLab({ authoritative: false, records });
process.stdout.write(`port ${lab.port}\n`);
process.stdin.resume();
process.stdin.on('end', () => void lab.close().then(() => process.exit(0)));
