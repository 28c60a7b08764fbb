#!/usr/bin/env node
/**
 * `netdiag` (docs/cli.md): runs the command's bundle from dist/, building dist/ first when it is missing or
 * older than the sources, as `npm start` does (scripts/start.mjs), with V8's code cache of earlier runs
 * (scripts/command-script.mjs), so the command starts as fast as node loads one compiled script.
 */
import { fileURLToPath } from 'node:url';
import { buildIfStale } from '../scripts/build-if-stale.mjs';
import { loadCommandScript } from '../scripts/command-script.mjs';

performance.mark('netdiag:bin/netdiag.mjs evaluated');
try {
  await buildIfStale();
} catch (e) {
  process.stderr.write(`netdiag: ${e.message}\n`);
  process.exit(2);
}
performance.mark('netdiag:dist/ checked');
const command = loadCommandScript(fileURLToPath(new URL('../dist/cli.cjs', import.meta.url)));
performance.mark(`netdiag:dist/cli.cjs evaluated (code cache ${command.cacheUsed ? 'used' : 'made'})`);
const code = await command.exports.main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  readStdin: async () => {
    const chunks = [];
    for await (const chunk of process.stdin) chunks.push(chunk);
    return Buffer.concat(chunks).toString('utf8');
  },
});
command.settle();
// the in-process service's sockets and timers are closed; what a library left open must not keep the shell waiting
process.stdout.write('', () => process.exit(code));
