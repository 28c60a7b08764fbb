/**
 * `netdiag`, the command (bin/netdiag.mjs runs this module from dist/, built when stale as `npm start`
 * does): one check, one check over many targets, or the report, against a service or in this process
 * (./transport.ts), printed for a person, as JSON, or as NDJSON, with exit codes for pipelines
 * (docs/cli.md).
 */
import { readFileSync } from 'node:fs';
import { projectFile } from '../project-files.js';
import { parseCommandLine, UsageError, USAGE, type CliOptions } from './args.js';
import { localTransport, remoteTransport, type Transport } from './transport.js';
import { fetchIndex, type IndexTool } from './tool-index.js';
import { runTool } from './run-tool.js';
import { runMany } from './run-many.js';
import { runReport } from './run-report.js';
import { printable, styleFor } from './output.js';
import { EXIT, type Io } from './io.js';
import { mark, timingLines } from './timings.js';

async function targetsOf(options: CliOptions, io: Io): Promise<string[]> {
  const fromStdin = options.targets.includes('-') || options.file === '-';
  const lines = (text: string) =>
    text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l.length > 0 && !l.startsWith('#'));
  const targets = options.targets.filter((t) => t !== '-');
  if (options.file && options.file !== '-') {
    try {
      targets.push(...lines(readFileSync(options.file, 'utf8')));
    } catch (e) {
      throw new UsageError(`--file: ${(e as Error).message}`);
    }
  }
  if (fromStdin) targets.push(...lines(await io.readStdin()));
  return targets;
}

function printTools(tools: readonly IndexTool[], io: Io, json: boolean): number {
  if (json) {
    io.stdout.write(`${JSON.stringify(tools, null, 2)}\n`);
    return EXIT.ok;
  }
  const style = styleFor(io.stdout, io.env, null);
  for (const t of tools) {
    const params = t.parameters.map((p) => (p.required ? p.name : `${p.name}?`)).join(' ');
    io.stdout.write(
      `${style.bold(t.tool.padEnd(24))} ${params.padEnd(22)} ${String(t.credits).padStart(3)} cr  ${t.summary}\n`,
    );
  }
  return EXIT.ok;
}

/** The checks a command runs in process: one tool's, or every one (the report, the list of tools). */
function checksOf(command: string): string[] | null {
  return command === 'report' || command === 'tools' ? null : [command];
}

/** The report, or one tool over one or many targets. */
async function runCommand(
  transport: Transport,
  tools: readonly IndexTool[],
  options: CliOptions,
  io: Io,
  giveUp: AbortSignal | null,
): Promise<number> {
  if (options.command === 'report') {
    if (options.targets.length !== 1) throw new UsageError('report takes one domain');
    return runReport(transport, tools, options, options.targets[0]!, io);
  }
  const tool = tools.find((t) => t.tool === options.command);
  if (!tool) throw new UsageError(`no tool "${options.command}" (netdiag tools lists them)`);
  const targets = await targetsOf(options, io);
  const many = options.file !== null || options.targets.includes('-') || targets.length > 1;
  return many
    ? runMany(transport, tool, targets, options, io, giveUp)
    : runTool(transport, tool, targets[0] ?? null, options, io);
}

export async function main(argv: readonly string[], io: Io): Promise<number> {
  let options: CliOptions;
  try {
    options = parseCommandLine(argv, io.env);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.stderr.write(`netdiag: ${e.message}\n\n${USAGE}`);
    return EXIT.usage;
  }
  if (options.version) {
    const pkg = JSON.parse(readFileSync(projectFile('package.json'), 'utf8')) as { version: string };
    io.stdout.write(`netdiag ${pkg.version}\n`);
    return EXIT.ok;
  }
  if (options.help || options.command === '') {
    (options.help ? io.stdout : io.stderr).write(USAGE);
    return options.help ? EXIT.ok : EXIT.usage;
  }
  // --timeout: every request of the command ends then, and what was asked of a service is cancelled
  const giveUp = options.timeoutMs === null ? null : AbortSignal.timeout(options.timeoutMs);
  const gaveUp = () => {
    io.stderr.write(`netdiag: gave up after ${options.timeoutMs! / 1000} s (--timeout)\n`);
    return EXIT.usage;
  };
  let transport: Transport;
  try {
    transport = options.url
      ? remoteTransport(options.url, options.key, giveUp)
      : await localTransport(options.config, io.env, checksOf(options.command), giveUp);
  } catch (e) {
    io.stderr.write(`netdiag: ${printable((e as Error).message)}\n`);
    return EXIT.usage;
  }
  try {
    const tools = await fetchIndex(transport, options.url);
    mark(`index of ${tools.length} tool(s) (GET /api/v1)`);
    if (options.command === 'tools') return printTools(tools, io, options.json);
    const code = await runCommand(transport, tools, options, io, giveUp);
    // an answer cut short by the bound (in process, the check ends with what it had) is not a verdict
    return giveUp?.aborted ? gaveUp() : code;
  } catch (e) {
    if (giveUp?.aborted) return gaveUp();
    if (e instanceof UsageError) {
      io.stderr.write(`netdiag: ${e.message}\n`);
      return EXIT.usage;
    }
    io.stderr.write(`netdiag: ${printable((e as Error).message)}\n`);
    return EXIT.usage;
  } finally {
    mark('check answered and printed');
    await transport.close();
    mark('closed');
    for (const line of timingLines()) io.stderr.write(`netdiag timings: ${line}\n`);
  }
}
