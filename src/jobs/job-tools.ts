/**
 * What jobs ask of the tools they run (the port the REST layer implements, src/rest/jobs/rest-job-tools.ts):
 * which tools exist, their parameters and price, how one target is checked as the single call checks it,
 * and how one item runs as the single call runs. Jobs know no route, document or schema.
 */
import type { KeyIdentity } from '../platform/keys.js';
import type { JobRecord } from './job-record.js';
import type { SubmittedTarget } from './job-shape.js';

export interface ItemResult {
  readonly ok: boolean;
  /** the HTTP status the single call would have had */
  readonly status: number;
  readonly data?: unknown;
  readonly error?: string;
  /** decided before anything was sent upstream (a refused target): its price goes back (decisions §1) */
  readonly refund: boolean;
}

export interface JobTool {
  readonly name: string;
  /** the REST parameters the tool reads */
  readonly parameters: readonly string[];
  /** the parameter a string target fills (domain, host, url or target); null when the tool has none */
  readonly mainParameter: string | null;
  /** the price of one item (`quota.costs`) */
  readonly cost: number;
  /** runs one item as the single call with these parameters would run, prepaid */
  run(values: Readonly<Record<string, string>>, identity: KeyIdentity, signal: AbortSignal): Promise<ItemResult>;
}

/** Checks targets of one submission: each as the single call's parameter reading and argument parser would. */
export interface TargetValidator {
  /** throws a NetdiagError (400) with the single call's reason */
  check(tool: JobTool, values: Readonly<Record<string, string>>): void;
  /** releases what the checks held (the request context) */
  close(): void;
}

export interface JobTools {
  /** undefined for an unknown tool, and for the tools that answer about the caller (my-ip) */
  get(name: string): JobTool | undefined;
  /** every tool a job may run */
  names(): readonly string[];
  /** a validator for the targets of one submission by `identity` */
  validator(caller: { identity: KeyIdentity; request: Request; url: URL }): TargetValidator;
}

/** The parameters one item runs with: the shared ones, then the target's own (a target's value wins). */
export function itemValues(
  record: JobRecord,
  target: SubmittedTarget,
  mainParameter: string | null,
): Record<string, string> {
  if (typeof target !== 'string') return { ...record.params, ...target };
  return mainParameter === null ? { ...record.params } : { ...record.params, [mainParameter]: target };
}
