#!/usr/bin/env node
/**
 * `npm start`: serves the compiled service (dist/main.js) with plain node — no TypeScript transpiler in
 * the serving process — building it first when it is missing or older than the sources.
 */
import { buildIfStale } from './build-if-stale.mjs';

try {
  await buildIfStale();
} catch (e) {
  process.stderr.write(`netdiag: refusing to start: ${e.message}\n`);
  process.exit(1);
}
await import('../dist/main.js');
