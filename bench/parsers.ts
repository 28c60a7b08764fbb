/**
 * Parser time against hostile input of growing size (test/security/hostile-inputs.ts): a linear parser
 * takes four times as long for four times the input; the ratio column shows it. Then each WHOIS and RDAP
 * hostile answer at its full size (HOSTILE_VALUE_BYTES), against the target a worker can afford per answer. No network.
 */
import { HOSTILE_CASES, HOSTILE_REGISTRY_ANSWERS, HOSTILE_VALUE_BYTES } from '../test/security/hostile-inputs.js';

/** Time a worker may spend parsing one hostile registry answer. */
const REGISTRY_ANSWER_TARGET_MS = 50;

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
  const growing = [
    ...HOSTILE_CASES,
    ...HOSTILE_REGISTRY_ANSWERS.map(({ kind, shape, input, parse }) => ({ name: `${kind} (${shape})`, input, parse })),
  ];
  for (const { name, input, parse } of growing) {
    const small = timeOf(parse, input(25 * 1024));
    const large = timeOf(parse, input(100 * 1024));
    console.log(
      `| ${name} | ${small.toFixed(2)} | ${large.toFixed(2)} | ${(large / Math.max(small, 0.001)).toFixed(1)} |`,
    );
  }

  const size = `${HOSTILE_VALUE_BYTES / 1024} KB`;
  console.log(`\n## WHOIS and RDAP hostile answers (${size} value, ms per parse)`);
  let over = 0;
  for (const { kind, shape, input, parse } of HOSTILE_REGISTRY_ANSWERS) {
    const ms = timeOf(parse, input(HOSTILE_VALUE_BYTES));
    if (ms >= REGISTRY_ANSWER_TARGET_MS) over += 1;
    const verdict = ms < REGISTRY_ANSWER_TARGET_MS ? '' : '  OVER TARGET';
    console.log(`${kind} (${size} ${shape}): ${ms.toFixed(1)} ms (target < ${REGISTRY_ANSWER_TARGET_MS} ms)${verdict}`);
  }
  console.log(`${HOSTILE_REGISTRY_ANSWERS.length - over} of ${HOSTILE_REGISTRY_ANSWERS.length} within target`);
}

if (import.meta.url === `file://${process.argv[1]}`) await benchParsers();
