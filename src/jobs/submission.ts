/**
 * Reads and checks a job submission (docs/jobs.md "Endpoints"), in time linear in the body and in two
 * stages so that the credit check comes between them (./job-operations.ts):
 *   1. `readShape`: what the price needs — a JSON object, a known tool, 1 to `jobs.maxTargets` targets;
 *   2. `readParameters` and `readTargets`: every parameter name is one of the tool's (an unknown one is a
 *      400 naming it, with the nearest name), every value is bounded as a single call bounds it
 *      (`checkParameterText`: at most 2048 characters, no control characters), and every target goes
 *      through the single call's parameter reading and argument parser (./job-tools.ts), so a bad target's
 *      reason reads as that call's 400, prefixed with its index.
 * A target's parameters and the shared ones make at most one value per tool parameter, so a target costs
 * the same whatever else the body holds. Nothing is stored unless every target passes.
 */
import { suggestionList } from 'graphql/jsutils/suggestionList.js';
import { NetdiagError } from '../errors.js';
import { checkParameterText, MAX_PARAMETER_LENGTH } from '../validation.js';
import type { JobTool, JobTools, TargetValidator } from './job-tools.js';
import type { SubmittedTarget } from './job-shape.js';

/** the body's fields (docs/contract/jobs.md "Behaviour" names the rest of the job's rules) */
const FIELDS = ['tool', 'targets', 'params', 'callbackUrl'];
/** Targets checked between two turns of the event loop: a long valid list never holds up other requests. */
const CHECKED_PER_TURN = 128;
/** Unknown names quoted in a refusal at most: the rest are counted. */
const NAMED_AT_MOST = 3;

export class SubmissionError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface SubmissionShape {
  readonly tool: JobTool;
  readonly targets: readonly unknown[];
  readonly params: unknown;
  readonly callbackUrl: unknown;
}

const clip = (text: string) => JSON.stringify(text.length > 64 ? `${text.slice(0, 63)}…` : text);

/** Stage 1: the fields the price depends on. Throws SubmissionError (400). */
export function readShape(body: unknown, tools: JobTools, maxTargets: number): SubmissionShape {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new SubmissionError(400, 'the body must be a JSON object: { "tool": "...", "targets": [...] }');
  const fields = body as Record<string, unknown>;
  const unknown = unknownNames(Object.keys(fields), FIELDS);
  if (unknown) throw new SubmissionError(400, `${unknown}: a job takes tool, targets, params and callbackUrl`);
  const { tool: name, targets } = fields;
  if (typeof name !== 'string' || name === '')
    throw new SubmissionError(400, 'tool: missing; name a v1 tool (GET /api/v1 lists them)');
  const tool = tools.get(name);
  if (!tool) {
    const near = suggestionList(name.slice(0, 64), [...tools.names()]).slice(0, NAMED_AT_MOST);
    const hint = near.length > 0 ? `did you mean ${near.map((n) => `"${n}"`).join(' or ')}? ` : '';
    throw new SubmissionError(
      400,
      `tool: ${clip(name)} is not a tool a job can run: ${hint}GET /api/v1 lists every tool (my-ip and what-is-my-ip answer about the caller and take no targets)`,
    );
  }
  if (!Array.isArray(targets) || targets.length === 0)
    throw new SubmissionError(400, `targets: an array of 1 to ${maxTargets} targets is required`);
  if (targets.length > maxTargets)
    throw new SubmissionError(400, `targets: ${targets.length} targets; a job takes at most ${maxTargets}`);
  return { tool, targets, params: fields.params, callbackUrl: fields.callbackUrl };
}

/**
 * "unknown field "x" (and 149999 more)", or null when every name is known; `sent` is read once and
 * only the first few unknown names are quoted.
 */
function unknownNames(sent: readonly string[], known: readonly string[], label = 'field'): string | null {
  const unknown: string[] = [];
  let count = 0;
  for (const name of sent) {
    if (known.includes(name)) continue;
    if (++count <= NAMED_AT_MOST) unknown.push(name);
  }
  if (count === 0) return null;
  const near = suggestionList(unknown[0]!.slice(0, 64), [...known])[0];
  const hint = near === undefined ? '' : ` (did you mean "${near}"?)`;
  const more = count > unknown.length ? ` and ${count - unknown.length} more` : '';
  return `unknown ${label}${count > 1 ? 's' : ''} ${unknown.map(clip).join(', ')}${hint}${more}`;
}

/**
 * Stage 2a: an object of the tool's parameters (the shared `params`, or one target's), each value a
 * string, number or boolean written as a query string would be, and bounded as a single call's.
 */
export function readParameters(value: unknown, tool: JobTool, where: string): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw new SubmissionError(400, `${where}: must be an object of parameter names and values`);
  const names = Object.keys(value);
  const unknown = unknownNames(names, tool.parameters, 'parameter');
  if (unknown) {
    const takes = tool.parameters.length > 0 ? tool.parameters.join(', ') : 'no parameters';
    throw new SubmissionError(400, `${where}: ${unknown}; ${tool.name} takes ${takes}`);
  }
  const out: Record<string, string> = {};
  for (const name of names) {
    const v = (value as Record<string, unknown>)[name];
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean')
      throw new SubmissionError(400, `${where}.${name}: a parameter value is a string, a number or a boolean`);
    out[name] = bounded(`${where}.${name}`, String(v));
  }
  return out;
}

/** The single call's rule for a parameter's text (at most 2048 characters, no control characters). */
function bounded(where: string, text: string): string {
  // refused on its length alone, before a character of it is read: a code point is at most 2 code units
  if (text.length > 2 * MAX_PARAMETER_LENGTH)
    throw new SubmissionError(
      400,
      `${where}: is more than ${2 * MAX_PARAMETER_LENGTH} characters long; at most ${MAX_PARAMETER_LENGTH} are accepted`,
    );
  try {
    checkParameterText(where, text);
  } catch (e) {
    if (e instanceof NetdiagError) throw new SubmissionError(e.status, e.message);
    throw e;
  }
  return text;
}

/**
 * Stage 2b: every target read and checked as its single call would be, between turns of the event loop
 * for a long list; stops early when the client has gone (`signal`).
 */
export async function readTargets(
  shape: SubmissionShape,
  params: Readonly<Record<string, string>>,
  validator: TargetValidator,
  signal: AbortSignal,
): Promise<SubmittedTarget[]> {
  const { tool } = shape;
  const read: SubmittedTarget[] = [];
  for (let index = 0; index < shape.targets.length; index++) {
    if (index > 0 && index % CHECKED_PER_TURN === 0) {
      await new Promise((resolve) => setImmediate(resolve));
      if (signal.aborted) throw new SubmissionError(400, 'the request was cancelled by the client');
    }
    const target = shape.targets[index];
    const where = `targets[${index}]`;
    let values: Record<string, string>;
    let kept: SubmittedTarget;
    if (typeof target === 'string') {
      if (tool.mainParameter === null)
        throw new SubmissionError(
          400,
          `${where}: ${tool.name} has no main parameter a string could fill; give an object of its parameters (${tool.parameters.join(', ')})`,
        );
      kept = bounded(where, target);
      values = { ...params, [tool.mainParameter]: kept };
    } else if (target !== null && typeof target === 'object' && !Array.isArray(target)) {
      const own = readParameters(target, tool, where);
      kept = own;
      values = { ...params, ...own };
    } else {
      throw new SubmissionError(400, `${where}: a target is a string or an object of the tool's parameters`);
    }
    try {
      validator.check(tool, values);
    } catch (e) {
      if (e instanceof NetdiagError) throw new SubmissionError(e.status, `${where}: ${e.message}`);
      throw e;
    }
    read.push(kept);
  }
  return read;
}
