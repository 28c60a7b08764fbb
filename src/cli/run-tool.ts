/** One check of one target: the answer printed for a person or as JSON, and the exit code it earns. */
import type { CliOptions } from './args.js';
import { EXIT, type Io } from './io.js';
import { checkGradeOption, judge, type Judgement } from './judge.js';
import { dataLines, findingLines, printable, progressLine, styleFor, type Style } from './output.js';
import { readEnvelope, toolQuery, type IndexTool } from './tool-index.js';
import type { Transport } from './transport.js';

/** Runs `work` with a ticking progress line on a terminal's stderr. */
export async function withProgress<T>(io: Io, label: string, work: () => Promise<T>): Promise<T> {
  const progress = progressLine(io.stderr);
  const started = performance.now();
  const tick = () => progress.show(`${label} … ${Math.round((performance.now() - started) / 1000)} s`);
  tick();
  const timer = setInterval(tick, 1000);
  try {
    return await work();
  } finally {
    clearInterval(timer);
    progress.clear();
  }
}

/** The verdict lines under an answer: grades against --min-grade, findings with their advice. */
export function judgementLines(judgement: Judgement, options: CliOptions, style: Style): string[] {
  const lines: string[] = [];
  for (const g of judgement.grades) {
    const below = judgement.belowGrade.includes(g);
    lines.push(
      `${style.bold(`${g.name} grade`)}  ${g.grade === null ? 'none' : style.tone(below ? 'critical' : 'ok', printable(g.grade))}${below ? `  (below --min-grade ${options.minGrade})` : ''}`,
    );
  }
  if (judgement.findings.length > 0)
    lines.push('', style.bold('Findings'), ...findingLines(judgement.findings, style, '  '));
  return lines;
}

export async function runTool(
  transport: Transport,
  tool: IndexTool,
  target: string | null,
  options: CliOptions,
  io: Io,
): Promise<number> {
  checkGradeOption(tool.tool, options);
  const path = `/api/v1/${tool.tool}${toolQuery(tool, target, options.params)}`;
  const envelope = await withProgress(io, `${tool.tool} ${target ?? ''}`.trim(), async () =>
    readEnvelope(await transport.fetch(path)),
  );
  if (!envelope.ok) {
    io.stderr.write(
      `netdiag: ${tool.tool}${target ? ` ${printable(target)}` : ''}: ${envelope.status} ${printable(envelope.error)}\n`,
    );
    return EXIT.usage;
  }
  const judgement = judge(tool.tool, envelope.data, options);
  if (options.json) {
    io.stdout.write(`${JSON.stringify(envelope.data, null, 2)}\n`);
    return judgement.exit;
  }
  const style = styleFor(io.stdout, io.env, options.color);
  const lines = [
    style.bold(`${tool.tool}${target ? ` ${printable(target)}` : ''}`),
    ...dataLines(envelope.data, style, '  '),
  ];
  const verdict = judgementLines(judgement, options, style);
  if (verdict.length > 0) lines.push('', ...verdict);
  io.stdout.write(`${lines.join('\n')}\n`);
  return judgement.exit;
}
