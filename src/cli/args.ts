/**
 * The command line of `netdiag` (docs/cli.md): `netdiag <tool> <target> [--<param> value]… [options]`,
 * `netdiag report <domain>`, `netdiag tools`. Read with node:util's parseArgs (built into every supported
 * Node line; commander 15 needs Node 22.12): the command's own options are declared, and any other
 * `--name value` is a parameter of the tool, checked against the tool's parameters once they are known.
 */
import { parseArgs } from 'node:util';
import type { Severity } from '../web/report/findings.js';
import { isGrade } from '../web/report/verdicts.js';
import { isReportView, type ReportView } from '../web/report/sections.js';

export class UsageError extends Error {}

export interface CliOptions {
  /** the tool, `report` or `tools` */
  readonly command: string;
  /** the targets given on the line ("-" means one per line from stdin) */
  readonly targets: readonly string[];
  /** a file of targets, one a line */
  readonly file: string | null;
  /** the tool's other parameters */
  readonly params: Readonly<Record<string, string>>;
  /** the service, or null for in-process */
  readonly url: string | null;
  readonly key: string | null;
  /** a configuration file for the in-process mode */
  readonly config: string | null;
  readonly json: boolean;
  readonly failOn: Exclude<Severity, 'info'>;
  readonly minGrade: string | null;
  readonly view: ReportView;
  readonly concurrency: number;
  /** the whole command's bound (--timeout, in seconds on the line), or null: no bound */
  readonly timeoutMs: number | null;
  readonly color: boolean | null;
  readonly help: boolean;
  readonly version: boolean;
}

const OPTIONS = {
  url: { type: 'string' },
  key: { type: 'string' },
  local: { type: 'boolean' },
  config: { type: 'string' },
  file: { type: 'string', short: 'f' },
  json: { type: 'boolean' },
  'fail-on': { type: 'string' },
  'min-grade': { type: 'string' },
  view: { type: 'string' },
  concurrency: { type: 'string' },
  timeout: { type: 'string' },
  color: { type: 'boolean' },
  'no-color': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const;

/** The most targets run at once in process (each may open dozens of connections). */
export const MAX_CONCURRENCY = 32;

/** A week: --timeout bounds a command, and a job of many targets may rightly take days. */
const MAX_TIMEOUT_SECONDS = 7 * 24 * 3600;

export function parseCommandLine(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): CliOptions {
  let parsed: ReturnType<
    typeof parseArgs<{ options: typeof OPTIONS; strict: false; tokens: true; allowPositionals: true }>
  >;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, strict: false, allowPositionals: true, tokens: true });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const known = new Set(Object.keys(OPTIONS));
  const params: Record<string, string> = {};
  const positionals: string[] = [];
  const tokens = parsed.tokens ?? [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.kind === 'option-terminator') continue;
    if (token.kind === 'positional') {
      positionals.push(token.value);
      continue;
    }
    if (known.has(token.name)) continue;
    // a tool parameter: `--port 25` or `--port=25`
    let value = token.value;
    if (value === undefined) {
      const next = tokens[i + 1];
      if (next?.kind !== 'positional') throw new UsageError(`--${token.name} needs a value`);
      value = next.value;
      i++;
    }
    params[token.name] = value;
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const string = (name: string): string | null => {
    const v = values[name];
    if (v === true) throw new UsageError(`--${name} needs a value`);
    return typeof v === 'string' ? v : null;
  };
  const failOn = string('fail-on') ?? 'critical';
  if (failOn !== 'warning' && failOn !== 'critical') throw new UsageError('--fail-on takes warning or critical');
  const minGrade = string('min-grade');
  if (minGrade !== null && !isGrade(minGrade))
    throw new UsageError(`--min-grade: "${minGrade}" is not a grade (A+ … F)`);
  const view = string('view') ?? 'all';
  if (!isReportView(view)) throw new UsageError('--view takes web, mail or all');
  const concurrencyText = string('concurrency') ?? '4';
  const concurrency = Number(concurrencyText);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY) {
    throw new UsageError(`--concurrency takes a whole number from 1 to ${MAX_CONCURRENCY}`);
  }
  const timeoutText = string('timeout');
  const timeoutSeconds = timeoutText === null ? null : Number(timeoutText);
  if (timeoutSeconds !== null && !(timeoutSeconds > 0 && timeoutSeconds <= MAX_TIMEOUT_SECONDS))
    throw new UsageError(`--timeout takes seconds, more than 0 and at most ${MAX_TIMEOUT_SECONDS}`);
  const local = values.local === true;
  const url = local ? null : (string('url') ?? env.NETDIAG_URL ?? null);
  if (url !== null && !/^https?:\/\/[^/]/.test(url)) throw new UsageError(`--url: "${url}" is not an http(s) address`);
  const [command = '', ...targets] = positionals;
  return {
    command,
    targets,
    file: string('file'),
    params,
    url: url === null ? null : url.replace(/\/+$/, ''),
    key: string('key') ?? env.NETDIAG_API_KEY ?? null,
    config: string('config') ?? env.NETDIAG_CONFIG ?? null,
    json: values.json === true,
    failOn,
    minGrade: minGrade === null ? null : minGrade.toUpperCase(),
    view,
    concurrency,
    timeoutMs: timeoutSeconds === null ? null : Math.round(timeoutSeconds * 1000),
    color: values['no-color'] === true ? false : values.color === true ? true : null,
    help: values.help === true,
    version: values.version === true,
  };
}

export const USAGE = `netdiag — network diagnostics from the command line (docs/cli.md)

  netdiag <tool> <target> [--<param> value]…   one check (netdiag tools lists them)
  netdiag <tool> --file targets.txt            one check over many targets (or "-": stdin), as NDJSON
  netdiag report <domain> [--view web|mail]    the report: website, TLS, HTTP security, DNSSEC, mail, registration
  netdiag tools                                the tools, their parameters and prices

Where the checks run:
  --url <url>          a netdiag service (or NETDIAG_URL); many targets go as one job
  --key <key>          its API key (or NETDIAG_API_KEY)
  --local              in this process, with the service's configuration (the default without a URL)
  --config <file>      that configuration file (or NETDIAG_CONFIG)

Output and exit codes:
  --json               the answer's data as JSON (NDJSON for many targets)
  --fail-on <level>    warning | critical (default): exit 1 when a finding reaches it
  --min-grade <grade>  exit 1 when a TLS or HTTP grade is below it (tls-rating, http-rating,
                       website-health-check, report)
  --concurrency <n>    targets checked at once in process (default 4)
  --timeout <seconds>  give up after this long: exit 2, and a job the command submitted is cancelled
  --no-color           no colours (also NO_COLOR); colours only on a terminal
  Exit 0: nothing reached --fail-on or --min-grade; 1: something did; 2: a usage error, a check
  that could not run, or --timeout reached.
`;
