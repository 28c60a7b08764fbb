#!/usr/bin/env node
/**
 * `netdiag` (docs/cli.md): runs the command from dist/, building dist/ first when it is missing or older
 * than the sources, as `npm start` does (scripts/start.mjs), so the command starts as fast as node loads
 * one bundle.
 */
import module from 'node:module';
import { buildIfStale } from '../scripts/build-if-stale.mjs';

// V8's code cache for the bundle (Node 22.1 and newer; Node 20 has none): a command is a fresh process each
// time, and compiling the service's code is most of its start-up (docs/cli.md "Performance")
module.enableCompileCache?.();

try {
  await buildIfStale();
} catch (e) {
  process.stderr.write(`netdiag: ${e.message}\n`);
  process.exit(2);
}
const { main } = await import('../dist/cli.js');
const code = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  readStdin: async () => {
    const chunks = [];
    for await (const chunk of process.stdin) chunks.push(chunk);
    return Buffer.concat(chunks).toString('utf8');
  },
});
// the in-process service's sockets and timers are closed; what a library left open must not keep the shell waiting
process.stdout.write('', () => process.exit(code));
