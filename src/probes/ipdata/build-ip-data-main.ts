/**
 * The IP data builder's process (./bundled.ts starts it through ./ip-data-builder.ts):
 * `node build-ip-data-main.js <sources as JSON> <output path>`. It exits 0 once the
 * file is in place; otherwise it prints why on stderr and exits 1.
 */
import { buildIpDataFile, type BundledFiles } from './bundled.js';

const [sources, out] = process.argv.slice(2);
try {
  if (!sources || !out) throw new Error('usage: build-ip-data-main <sources as JSON> <output path>');
  await buildIpDataFile(JSON.parse(sources) as BundledFiles, out);
} catch (e) {
  process.stderr.write(`${(e as Error).message}\n`);
  process.exitCode = 1;
}
