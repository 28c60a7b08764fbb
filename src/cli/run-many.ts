/**
 * One check over many targets, printed as NDJSON in target order, one line per target:
 * `{ index, target, ok, status, data | error }` — the lines of a job's results (docs/jobs.md). Against a
 * service the targets go as one job (`POST /api/v1/jobs`), whose results are read as they are written;
 * in process they run here, `--concurrency` at a time.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { CliOptions } from './args.js';
import { EXIT, type Io, worstExit } from './io.js';
import { checkGradeOption, judge } from './judge.js';
import { printable, progressLine } from './output.js';
import { readEnvelope, toolQuery, type IndexTool } from './tool-index.js';
import type { Transport } from './transport.js';

interface Item {
  readonly index: number;
  readonly target: string;
  readonly ok: boolean;
  readonly status: number;
  readonly data?: unknown;
  readonly error?: string;
}

/** How often a job's progress is asked for while it runs. */
const POLL_MS = 500;
/** How long the cancellation of a job given up on (--timeout) may take before the command exits anyway. */
const CANCEL_MS = 5_000;

function itemExit(tool: string, item: Item, options: CliOptions): number {
  return item.ok ? judge(tool, item.data, options).exit : EXIT.usage;
}

async function inProcess(
  transport: Transport,
  tool: IndexTool,
  targets: readonly string[],
  options: CliOptions,
  emit: (item: Item) => void,
) {
  // every query is checked before anything runs: a bad parameter is a usage error, not N failed items
  const paths = targets.map((t) => `/api/v1/${tool.tool}${toolQuery(tool, t, options.params)}`);
  const finished = new Map<number, Item>();
  let next = 0;
  let written = 0;
  const worker = async () => {
    while (next < targets.length) {
      const index = next++;
      const envelope = await readEnvelope(await transport.fetch(paths[index]!));
      finished.set(index, {
        index,
        target: targets[index]!,
        ok: envelope.ok,
        status: envelope.status,
        ...(envelope.ok ? { data: envelope.data } : { error: envelope.error ?? `HTTP ${envelope.status}` }),
      });
      // in target order, as a job's results are
      while (finished.has(written)) {
        emit(finished.get(written)!);
        finished.delete(written);
        written++;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, targets.length) }, worker));
}

async function asJob(
  transport: Transport,
  tool: IndexTool,
  targets: readonly string[],
  options: CliOptions,
  emit: (item: Item) => void,
  io: Io,
  giveUp: AbortSignal | null,
) {
  for (const t of targets.slice(0, 1)) toolQuery(tool, t, options.params); // the parameters, checked here
  // The submission is not cut at the bound itself, but CANCEL_MS after it: cut, it could leave a job
  // running whose id the command never learnt, and so could not cancel.
  const submitted = await readEnvelope(
    await transport.fetch('/api/v1/jobs', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tool: tool.tool, targets, params: options.params }),
      ...(giveUp ? { signal: endingAfter(giveUp, CANCEL_MS) } : {}),
    }),
  );
  if (!submitted.ok) throw new Error(`the job was refused: ${submitted.status} ${submitted.error}`);
  const id = (submitted.data as { id: string }).id;
  try {
    await followJob(transport, id, emit, io, giveUp);
  } catch (e) {
    // given up on (--timeout): the service stops its items and gives back the credits of those not run
    if (giveUp?.aborted) {
      const cancelled = await transport
        .fetch(`/api/v1/jobs/${id}`, { method: 'DELETE', signal: AbortSignal.timeout(CANCEL_MS) })
        .then((r) => r.ok)
        .catch(() => false);
      io.stderr.write(`netdiag: job ${id} ${cancelled ? 'cancelled' : 'could not be cancelled; it still runs'}\n`);
    }
    throw e;
  }
}

/** A signal that ends `ms` after `signal` has. */
function endingAfter(signal: AbortSignal, ms: number): AbortSignal {
  const later = new AbortController();
  const end = () => setTimeout(() => later.abort(signal.reason), ms).unref();
  if (signal.aborted) end();
  else signal.addEventListener('abort', end, { once: true });
  return later.signal;
}

/** Prints the job's results as they are written, until it has ended. */
async function followJob(
  transport: Transport,
  id: string,
  emit: (item: Item) => void,
  io: Io,
  giveUp: AbortSignal | null,
) {
  let after = -1;
  for (;;) {
    const job = await readEnvelope(await transport.fetch(`/api/v1/jobs/${id}`));
    const state = job.data as { finishedAt?: string | null; done?: number; total?: number; status?: string } | null;
    const results = await transport.fetch(`/api/v1/jobs/${id}/results${after >= 0 ? `?after=${after}` : ''}`);
    if (!results.ok) throw new Error(`the job's results could not be read: HTTP ${results.status}`);
    for (const line of (await results.text()).split('\n')) {
      if (!line.trim()) continue;
      const item = JSON.parse(line) as Item;
      emit(item);
      after = item.index;
    }
    if (!job.ok || state?.finishedAt) {
      if (state?.status === 'cancelled') io.stderr.write(`netdiag: job ${id} was cancelled\n`);
      return;
    }
    await sleep(POLL_MS, undefined, giveUp ? { signal: giveUp } : {});
  }
}

export async function runMany(
  transport: Transport,
  tool: IndexTool,
  targets: readonly string[],
  options: CliOptions,
  io: Io,
  /** the command's bound (--timeout): a job given up on is cancelled */
  giveUp: AbortSignal | null = null,
): Promise<number> {
  checkGradeOption(tool.tool, options);
  if (targets.length === 0) {
    io.stderr.write('netdiag: no targets (one a line in the file or on stdin)\n');
    return EXIT.usage;
  }
  const progress = progressLine(io.stderr);
  const exits: number[] = [];
  const emit = (item: Item) => {
    progress.clear();
    io.stdout.write(`${JSON.stringify(item)}\n`);
    exits.push(itemExit(tool.tool, item, options));
    if (!item.ok) io.stderr.write(`netdiag: ${printable(item.target)}: ${item.status} ${printable(item.error)}\n`);
    progress.show(`${tool.tool}: ${exits.length} of ${targets.length} done`);
  };
  try {
    if (transport.local) await inProcess(transport, tool, targets, options, emit);
    else await asJob(transport, tool, targets, options, emit, io, giveUp);
  } finally {
    progress.clear();
  }
  return worstExit(exits);
}
