/**
 * The tools as the service lists them (`GET /api/v1`: name, parameters, price), so the command knows a
 * tool's main parameter and refuses a parameter the tool does not take — the API itself ignores unknown
 * parameters — and REST answers read as the envelope (docs/contract/api-v1.md).
 */
import { UsageError } from './args.js';
import type { Transport } from './transport.js';

export interface IndexTool {
  readonly tool: string;
  readonly credits: number;
  readonly summary: string;
  readonly parameters: readonly { readonly name: string; readonly required: boolean }[];
}

export interface Envelope {
  readonly status: number;
  readonly ok: boolean;
  readonly data: unknown;
  readonly error: string | null;
}

export async function readEnvelope(response: Response): Promise<Envelope> {
  const body = (await response.json().catch(() => null)) as { ok?: boolean; data?: unknown; error?: string } | null;
  return {
    status: response.status,
    ok: body?.ok === true,
    data: body?.data ?? null,
    error: body?.ok === true ? null : (body?.error ?? `HTTP ${response.status}`),
  };
}

export async function fetchIndex(transport: Transport, url: string | null): Promise<IndexTool[]> {
  let response: Response;
  try {
    response = await transport.fetch('/api/v1');
  } catch (e) {
    throw new Error(`cannot reach ${url ?? 'the service'}: ${(e as Error).message}`);
  }
  const index = await readEnvelope(response);
  const tools = (index.data as { tools?: IndexTool[] } | null)?.tools;
  if (!index.ok || !Array.isArray(tools)) {
    throw new Error(`${url ?? 'the service'} did not list its tools (GET /api/v1: ${index.error ?? 'no tools'})`);
  }
  return tools;
}

/** The parameter a target fills: the tool's first required one (null for a tool without: my-ip). */
export function mainParameter(tool: IndexTool): string | null {
  return tool.parameters.find((p) => p.required)?.name ?? null;
}

/** The tool's query string for one target, every other parameter checked against the tool's. */
export function toolQuery(tool: IndexTool, target: string | null, params: Readonly<Record<string, string>>): string {
  const main = mainParameter(tool);
  const names = new Set(tool.parameters.map((p) => p.name));
  const query = new URLSearchParams();
  if (main !== null) {
    if (target === null) throw new UsageError(`${tool.tool} needs a target (its ${main})`);
    query.set(main, target);
  } else if (target !== null) {
    throw new UsageError(`${tool.tool} takes no target`);
  }
  for (const [name, value] of Object.entries(params)) {
    if (!names.has(name) || name === main) {
      const others = tool.parameters.filter((p) => p.name !== main).map((p) => `--${p.name}`);
      throw new UsageError(`${tool.tool} takes no --${name}${others.length ? ` (it takes ${others.join(', ')})` : ''}`);
    }
    query.set(name, value);
  }
  for (const p of tool.parameters) {
    if (p.required && p.name !== main && !(p.name in params)) throw new UsageError(`${tool.tool} needs --${p.name}`);
  }
  const text = query.toString();
  return text ? `?${text}` : '';
}
