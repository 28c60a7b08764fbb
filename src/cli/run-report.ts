/**
 * `netdiag report <domain>`: the report page's checks (src/web/report/sections.ts), each the REST call of
 * its tool, run at once — same answers and prices as the page — printed as the page's verdicts and each
 * part's findings, or as JSON (`{ domain, view, parts: { <part>: { ok, status, data | error } } }`).
 */
import { partsOf } from '../web/report/sections.js';
import { verdictsOf } from '../web/report/verdicts.js';
import type { CliOptions } from './args.js';
import { EXIT, type Io, worstExit } from './io.js';
import { judge } from './judge.js';
import { columns, findingLines, printable, progressLine, styleFor } from './output.js';
import { readEnvelope, toolQuery, type Envelope, type IndexTool } from './tool-index.js';
import type { Transport } from './transport.js';

export async function runReport(
  transport: Transport,
  tools: readonly IndexTool[],
  options: CliOptions,
  domain: string,
  io: Io,
): Promise<number> {
  const parts = partsOf(options.view).filter((p) => tools.some((t) => t.tool === p.tool));
  const progress = progressLine(io.stderr);
  const started = performance.now();
  let done = 0;
  const show = () =>
    progress.show(
      `report ${domain}: ${done} of ${parts.length} checks done … ${Math.round((performance.now() - started) / 1000)} s`,
    );
  show();
  const timer = setInterval(show, 1000);
  let answers: { id: string; tool: string; envelope: Envelope }[];
  try {
    answers = await Promise.all(
      parts.map(async (part) => {
        const tool = tools.find((t) => t.tool === part.tool)!;
        const envelope = await readEnvelope(
          await transport.fetch(`/api/v1/${tool.tool}${toolQuery(tool, domain, {})}`),
        );
        done++;
        show();
        return { id: part.id, tool: part.tool, envelope };
      }),
    );
  } finally {
    clearInterval(timer);
    progress.clear();
  }
  // the grades a report carries are the website check's; --fail-on counts every part's findings
  const judged = answers.map((a) => ({
    ...a,
    judgement: a.envelope.ok
      ? judge(a.tool, a.envelope.data, {
          failOn: options.failOn,
          minGrade: a.tool === 'website-health-check' ? options.minGrade : null,
        })
      : null,
  }));
  const exit = worstExit(judged.map((a) => (a.judgement ? a.judgement.exit : EXIT.usage)));
  if (options.json) {
    const out = {
      domain,
      view: options.view,
      parts: Object.fromEntries(
        judged.map((a) => [
          a.id,
          a.envelope.ok
            ? { ok: true, status: a.envelope.status, data: a.envelope.data }
            : { ok: false, status: a.envelope.status, error: a.envelope.error },
        ]),
      ),
    };
    io.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    return exit;
  }
  const style = styleFor(io.stdout, io.env, options.color);
  const lines = [style.bold(`Report for ${printable(domain)}`), ''];
  const verdictRows: string[][] = [];
  for (const a of judged) {
    if (!a.envelope.ok) {
      verdictRows.push([style.bold(a.id), style.tone('warning', 'error'), printable(a.envelope.error)]);
      continue;
    }
    for (const v of verdictsOf(a.id, a.envelope.data)) {
      verdictRows.push([style.bold(v.title), style.tone(v.severity ?? 'ok', printable(v.value)), printable(v.detail)]);
    }
  }
  lines.push(...columns(verdictRows).map((l) => `  ${l}`));
  for (const a of judged) {
    const findings = a.judgement?.findings ?? [];
    const below = a.judgement?.belowGrade ?? [];
    if (findings.length === 0 && below.length === 0) continue;
    lines.push('', style.bold(`${a.id} (${a.tool})`));
    for (const g of below)
      lines.push(
        `  ${style.tone('critical', `${g.name} grade ${g.grade ?? 'none'} is below --min-grade ${options.minGrade}`)}`,
      );
    lines.push(...findingLines(findings, style, '  '));
  }
  io.stdout.write(`${lines.join('\n')}\n`);
  return exit;
}
