/**
 * Reads a monitor submission (docs/contract/monitors.md, `POST /api/v1/monitors`) and a PATCH:
 * the whole body is checked before anything is accepted, and a fault is a 400 whose message names the
 * field, and for a target its index and the check that refused it, with the reason. Every target is
 * validated for every check by the check's own reading of its parameters — injected (`validateTarget`),
 * as the REST route reads a query — so a bad target reads as the same single call's 400 would.
 *
 * Linear in the body and bounded: at most `monitors.maxTargets` targets, each check once, texts of bounded
 * length; the target × check validations yield to the event loop every VALIDATED_PER_TURN. The webhook's
 * guard check (its host resolved and every address admitted) is the caller's, after this.
 */
import { InputError } from '../errors.js';
import { checkParameterText, MAX_PARAMETER_LENGTH, parseUrl } from '../validation.js';
import { parseDuration } from './duration.js';
import type { MonitorTarget } from './events.js';
import type { MonitorPatch } from './store/records.js';

export interface SubmissionRules {
  /** monitors.minInterval, in milliseconds */
  readonly minIntervalMs: number;
  /** monitors.maxTargets */
  readonly maxTargets: number;
  /**
   * Why `target` is not a valid target of `check` (with the shared `params`), as the check's single call
   * would answer in its 400; null when it is. The monitors' operations pass the REST route's parameter reading and parse
   * (runtime/monitor-operations.ts).
   */
  validateTarget(check: string, target: MonitorTarget, params: Readonly<Record<string, string>>): string | null;
  /** the tools a monitor may run: those with a watch spec (src/graphql-server/watch-specs.ts) */
  readonly tools: { has(tool: string): boolean };
}

/** The contract's presets: a name in `checks` that stands for these tools, in this order. */
export const PRESETS: Readonly<Record<string, readonly string[]>> = {
  web: ['website-health-check', 'tls-rating', 'http-rating', 'dnssec-chain', 'whois'],
  mail: ['mailhealth-check', 'dnssec-chain', 'whois'],
  tls: ['tls-rating'],
};

export interface MonitorSubmission {
  readonly name: string;
  /** tools, presets expanded, each once, in the order given */
  readonly checks: string[];
  readonly targets: MonitorTarget[];
  readonly params: Record<string, string>;
  readonly every: string;
  readonly everyMs: number;
  readonly warnDays: number;
  readonly public: boolean;
  readonly notify: { readonly webhook: string } | null;
}

export class MonitorSubmissionError extends Error {
  readonly status = 400;
}

/** Tools that answer about the caller rather than a target (as jobs refuse them). */
const ABOUT_THE_CALLER = new Set(['my-ip', 'what-is-my-ip']);
const SUBMISSION_FIELDS = ['name', 'checks', 'targets', 'params', 'every', 'notify', 'warnDays', 'public'];
const PATCH_FIELDS = ['name', 'every', 'notify', 'warnDays', 'paused', 'public'];
export const DEFAULT_WARN_DAYS = 21;
const MAX_WARN_DAYS = 365;
const MAX_NAME_LENGTH = 200;
/** A longer `every` than a month is a reminder, not a monitor. */
const MAX_EVERY_MS = 31 * 86_400_000;
/** Entries of `checks`: every tool and preset once, and then some. */
const MAX_CHECK_ENTRIES = 64;
/** Parameters of one target or of `params`: no check takes more than a handful. */
const MAX_PARAMETERS = 16;
const VALIDATED_PER_TURN = 500;

function fail(message: string): never {
  throw new MonitorSubmissionError(message);
}

/** A text as a message quotes it: JSON, shortened. */
function quote(text: string): string {
  const chars = [...text];
  return JSON.stringify(chars.length > 40 ? `${chars.slice(0, 39).join('')}…` : text);
}

/** `body`: the parsed JSON. Throws MonitorSubmissionError (400) naming the first fault. */
export async function readMonitorSubmission(body: unknown, rules: SubmissionRules): Promise<MonitorSubmission> {
  const fields = objectOf(body, 'the body', '{ "name": "...", "checks": [...], "targets": [...], "every": "15m" }');
  unknownField(fields, SUBMISSION_FIELDS, 'a monitor takes');
  const checks = readChecks(fields.checks, rules.tools);
  const targets = readTargets(fields.targets, rules.maxTargets);
  const params = readParameters(fields.params, 'params');
  const every = readEvery(fields.every, rules.minIntervalMs);
  const submission: MonitorSubmission = {
    name:
      fields.name === undefined
        ? `${checks.join(', ')} of ${targets.length} target${targets.length === 1 ? '' : 's'}`
        : readName(fields.name),
    checks,
    targets,
    params,
    ...every,
    warnDays: fields.warnDays === undefined ? DEFAULT_WARN_DAYS : readWarnDays(fields.warnDays),
    public: fields.public === undefined ? false : readBoolean(fields.public, 'public'),
    notify: readNotify(fields.notify),
  };
  // last, and the longest: every target for every check
  let validated = 0;
  for (const [index, target] of targets.entries())
    for (const check of checks) {
      if (++validated % VALIDATED_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
      const reason = rules.validateTarget(check, target, params);
      if (reason !== null) fail(`targets[${index}] (${check}): ${reason}`);
    }
  return submission;
}

/** A PATCH's body: any of name, every, notify (null removes the webhook), warnDays, paused, public. */
export function readMonitorPatch(body: unknown, rules: Pick<SubmissionRules, 'minIntervalMs'>): MonitorPatch {
  const fields = objectOf(body, 'the body', '{ "every": "1h", "paused": true, ... }');
  for (const fixed of ['checks', 'targets', 'params'])
    if (fields[fixed] !== undefined)
      fail(
        `${fixed}: a monitor's ${fixed} cannot be changed; create a monitor with the new ones (and delete this one)`,
      );
  unknownField(fields, PATCH_FIELDS, 'PATCH takes');
  const patch: { -readonly [K in keyof MonitorPatch]: MonitorPatch[K] } = {};
  if (fields.name !== undefined) patch.name = readName(fields.name);
  if (fields.every !== undefined) Object.assign(patch, readEvery(fields.every, rules.minIntervalMs));
  if (fields.notify !== undefined) patch.notify = readNotify(fields.notify);
  if (fields.warnDays !== undefined) patch.warnDays = readWarnDays(fields.warnDays);
  if (fields.paused !== undefined) patch.paused = readBoolean(fields.paused, 'paused');
  if (fields.public !== undefined) patch.public = readBoolean(fields.public, 'public');
  return patch;
}

function objectOf(value: unknown, where: string, shape: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    fail(`${where} must be a JSON object: ${shape}`);
  return value as Record<string, unknown>;
}

function unknownField(fields: Record<string, unknown>, known: readonly string[], what: string): void {
  const extra = Object.keys(fields).find((f) => !known.includes(f));
  if (extra !== undefined) fail(`unknown field ${quote(extra)}: ${what} ${known.join(', ')}`);
}

function readName(value: unknown): string {
  if (typeof value !== 'string') fail('name: a text of 1 to 200 characters');
  const name = text('name', value);
  if ([...name].length > MAX_NAME_LENGTH) fail(`name: at most ${MAX_NAME_LENGTH} characters`);
  return name;
}

/** A text parameter's rule (no control characters, bounded, not blank), as a 400 of this module. */
function text(where: string, value: string): string {
  try {
    return checkParameterText(where, value);
  } catch (e) {
    if (e instanceof InputError) fail(e.message);
    throw e;
  }
}

function readChecks(value: unknown, known: SubmissionRules['tools']): string[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_CHECK_ENTRIES)
    fail(`checks: a list of 1 to ${MAX_CHECK_ENTRIES} tool names or presets (${Object.keys(PRESETS).join(', ')})`);
  const checks: string[] = [];
  for (const [index, entry] of value.entries()) {
    if (typeof entry !== 'string') fail(`checks[${index}]: a tool name or a preset`);
    const tools = Object.hasOwn(PRESETS, entry) ? PRESETS[entry]! : known.has(entry) ? [entry] : null;
    if (tools === null)
      fail(
        ABOUT_THE_CALLER.has(entry)
          ? `checks[${index}]: ${entry} answers about the caller and takes no target; a monitor cannot run it`
          : `checks[${index}]: unknown check ${quote(entry)}: a v1 tool (GET /api/v1 lists them) or a preset (${Object.keys(PRESETS).join(', ')})`,
      );
    for (const tool of tools) if (!checks.includes(tool)) checks.push(tool);
  }
  return checks;
}

function readTargets(value: unknown, max: number): MonitorTarget[] {
  if (!Array.isArray(value) || value.length === 0) fail(`targets: a list of 1 to ${max} targets is required`);
  if (value.length > max) fail(`targets: ${value.length} targets; a monitor takes at most ${max}`);
  return value.map((target, index) => {
    if (typeof target === 'string') {
      if ([...target].length > MAX_PARAMETER_LENGTH)
        fail(`targets[${index}]: at most ${MAX_PARAMETER_LENGTH} characters`);
      return target;
    }
    if (target === null || typeof target !== 'object' || Array.isArray(target))
      fail(`targets[${index}]: a text (filling each check's main parameter) or an object of parameters`);
    const parameters = readParameters(target, `targets[${index}]`);
    if (Object.keys(parameters).length === 0) fail(`targets[${index}]: an object of at least one parameter`);
    return parameters;
  });
}

/** An object of parameter values: texts, or numbers and booleans written as a query string would. */
function readParameters(value: unknown, where: string): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) fail(`${where}: an object of parameter names and values`);
  const entries = Object.entries(value);
  if (entries.length > MAX_PARAMETERS) fail(`${where}: at most ${MAX_PARAMETERS} parameters`);
  const out: Record<string, string> = {};
  for (const [name, v] of entries) {
    if (!/^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(name)) fail(`${where}: ${quote(name)} is not a parameter name`);
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean')
      fail(`${where}.${name}: a parameter value is a text or a number`);
    if (String(v).length > MAX_PARAMETER_LENGTH) fail(`${where}.${name}: at most ${MAX_PARAMETER_LENGTH} characters`);
    out[name] = String(v);
  }
  return out;
}

function readEvery(value: unknown, minIntervalMs: number): { every: string; everyMs: number } {
  const ms = parseDuration(value);
  if (ms === null) fail('every: a duration such as "30s", "15m", "6h" or "1d"');
  if (ms < minIntervalMs)
    fail(`every: ${value} is shorter than this service's shortest interval, ${describeMs(minIntervalMs)}`);
  if (ms > MAX_EVERY_MS) fail('every: at most 31d');
  return { every: value as string, everyMs: ms };
}

function describeMs(ms: number): string {
  for (const [unit, size] of [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
  ] as const)
    if (ms % size === 0) return `${ms / size}${unit}`;
  return `${ms / 1000}s`;
}

function readWarnDays(value: unknown): number {
  if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > MAX_WARN_DAYS)
    fail(`warnDays: a whole number of days from 1 to ${MAX_WARN_DAYS}`);
  return value as number;
}

function readBoolean(value: unknown, where: string): boolean {
  if (typeof value !== 'boolean') fail(`${where}: true or false`);
  return value;
}

/** `{ "webhook": "https://..." }` or null; the URL's syntax only (its guard check is the caller's). */
function readNotify(value: unknown): { webhook: string } | null {
  if (value === undefined || value === null) return null;
  const fields = objectOf(value, 'notify', '{ "webhook": "https://..." }');
  unknownField(fields, ['webhook'], 'notify takes');
  if (typeof fields.webhook !== 'string') fail('notify.webhook: an https URL');
  let url: URL;
  try {
    url = parseUrl('notify.webhook', fields.webhook);
  } catch (e) {
    if (e instanceof InputError) fail(e.message);
    throw e;
  }
  if (url.protocol !== 'https:')
    fail("notify.webhook: https only (the events carry the monitor's findings and their signature), not http");
  return { webhook: url.href };
}
