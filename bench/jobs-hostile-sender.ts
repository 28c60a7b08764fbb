/**
 * The hostile client of bench/jobs-hostile.ts, in a process of its own (its work must not delay the
 * calls the bench times): sends one body back to back to POST /api/v1/jobs until its stdin closes; prints
 * `sending` once the first is answered, and `sent <n>` at the end. argv: origin (loopback only), key, the body's file, the status each must get.
 */
import { readFileSync } from 'node:fs';

const [origin, key, file, expected] = process.argv.slice(2) as [string, string, string, string];
if (new URL(origin).hostname !== '127.0.0.1') throw new Error('the bench only sends to loopback');
const body = readFileSync(file, 'utf8');
let going = true;
process.stdin.resume();
process.stdin.on('end', () => {
  going = false;
});
let sent = 0;
while (going) {
  const response = await fetch(`${origin}/api/v1/jobs`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body,
  });
  await response.arrayBuffer();
  if (response.status !== Number(expected)) throw new Error(`answered ${response.status}, expected ${expected}`);
  if (sent++ === 0) process.stdout.write('sending\n');
}
process.stdout.write(`sent ${sent}\n`);
