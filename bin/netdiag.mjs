#!/usr/bin/env node
/**
 * `netdiag` (docs/cli.md): runs the command from dist/, building dist/ first when it is missing or older
 * than the sources, as `npm start` does (scripts/start.mjs), so the command starts as fast as node loads
 * one bundle.
 */
import module from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { buildIfStale } from '../scripts/build-if-stale.mjs';

// V8's code cache for the bundle (Node 22.1 and newer; Node 20 has none): a command is a fresh process each
// time, and compiling the service's code is a large part of its start-up (docs/cli.md "Performance"). The
// cache lives in the user's own cache directory (NODE_COMPILE_CACHE when set), not in the shared temporary
// directory Node picks by default, where another user could have made the directory first.
module.enableCompileCache?.(
  process.env.NODE_COMPILE_CACHE ||
    join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'netdiag', 'compile-cache'),
);

performance.mark('netdiag:bin/netdiag.mjs evaluated');
try {
  await buildIfStale();
} catch (e) {
  process.stderr.write(`netdiag: ${e.message}\n`);
  process.exit(2);
}
performance.mark('netdiag:dist/ checked');
const { main } = await import('../dist/cli.js');
performance.mark('netdiag:dist/cli.js evaluated');
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
