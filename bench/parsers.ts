/**
 * Parser time against hostile input of growing size (test/security/hostile-inputs.ts): a linear parser
 * takes about 4× as long for 4× the input; the ratio column shows it. No network.
 */
import { HOSTILE_CASES } from '../test/security/hostile-inputs.js';

function timeOf(parse: (s: string) => unknown, text: string): number {
  parse(text); // warm up
  const rounds = 5;
  const started = performance.now();
  for (let i = 0; i < rounds; i++) parse(text);
  return (performance.now() - started) / rounds;
}

export async function benchParsers(): Promise<void> {
  console.log('\n## parsers against hostile input (ms per parse; 100 KB / 25 KB ratio, linear ≈ 4)');
  console.log('| case | 25 KB | 100 KB | ratio |');
  console.log('|---|---|---|---|');
  for (const { name, input, parse } of HOSTILE_CASES) {
    const small = timeOf(parse, input(25 * 1024));
    const large = timeOf(parse, input(100 * 1024));
    console.log(
      `| ${name} | ${small.toFixed(2)} | ${large.toFixed(2)} | ${(large / Math.max(small, 0.001)).toFixed(1)} |`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchParsers();
