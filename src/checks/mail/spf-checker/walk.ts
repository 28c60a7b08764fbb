/**
 * A lint-style walk of an SPF record's include/redirect tree (RFC 7208) that counts DNS-querying terms
 * and void lookups against the limits of §4.6.4.
 *
 * The walk has no sender, so it evaluates every term as if nothing matched (the worst case a
 * receiver meets): each include, a, mx, ptr, exists and redirect counts once toward the limit of
 * 10, included records count as they are reached, and a domain included twice counts twice (as
 * in real evaluation). It keeps going past the limits so that the whole tree is reported, but it
 * never asks more than `maxQueries` questions nor descends more than `maxDepth` levels, so a
 * hostile record cannot make it do unbounded work.
 */
import { SPF_WALK_MAX_QUESTIONS } from '../../../loaders/fan-out-limits.js';
import { canonicalName } from '../../../net/dns-name.js';
import { isProbeError } from '../../../probes/errors.js';
import type { TxtAnswer, TxtLookup } from '../shared/txt.js';
import { clip, expandDomainSpec } from './macro.js';
import {
  domainNameError,
  parseSpfRecord,
  selectSpfRecords,
  SPF_LOOKUP_LIMIT,
  SPF_MX_ADDRESS_LIMIT,
  SPF_VOID_LOOKUP_LIMIT,
  type ParsedSpfRecord,
  type SpfMechanism,
  type SpfModifier,
  type SpfTerm,
} from './syntax.js';

/** Answer of an A, AAAA or MX question (MX: the exchange names). */
export type RecordLookup = (name: string) => Promise<TxtAnswer>;

export interface SpfLookups {
  txt: TxtLookup;
  /** A records; without it, a and exists mechanisms are counted but not resolved (no void check) */
  a?: RecordLookup;
  /** AAAA records, asked for an a mechanism when the name has no A record */
  aaaa?: RecordLookup;
  /** MX exchange names; without it, mx mechanisms are counted but not resolved */
  mx?: RecordLookup;
}

export interface SpfWalkOptions {
  /** questions the walk may ask, the first TXT included (default SPF_WALK_MAX_QUESTIONS, 30) */
  maxQueries?: number;
  /** include/redirect nesting below the domain (default 10) */
  maxDepth?: number;
}

export type SpfNodeStatus =
  | 'ok'
  | 'no-record'
  | 'multiple-records'
  | 'invalid'
  | 'temperror'
  | 'loop'
  | 'not-evaluated';

export interface SpfTreeNode {
  domain: string;
  via: 'root' | 'include' | 'redirect';
  status: SpfNodeStatus;
  record: string | null;
  /** DNS-querying terms in this record itself (children count in their own nodes) */
  lookups: number;
  /** void lookups caused by this record's terms */
  voidLookups: number;
  children: SpfTreeNode[];
  notes: string[];
}

/** spf-checker's result (api-v1.md) with added fields. */
export interface SpfCheckResult {
  domain: string;
  found: boolean;
  /** the first SPF record, "" when none */
  record: string;
  /** the terms of that record as written, without "v=spf1" */
  mechanisms: string[];
  /** more than one SPF record: permerror (RFC 7208 §4.5) */
  multiple: boolean;
  recordCount: number;
  terms: SpfTerm[];
  lookupTree: SpfTreeNode | null;
  lookupCount: number;
  lookupLimit: number;
  voidLookupCount: number;
  voidLookupLimit: number;
  /** none: no record; permerror: `errors` is not empty; temperror: a DNS failure inside the tree */
  evaluation: 'none' | 'ok' | 'permerror' | 'temperror';
  /** permerror reasons */
  errors: string[];
  warnings: string[];
  /** DNS failures below the root (each would be a temperror for receivers) */
  temporaryErrors: string[];
  /** terms the walk could not follow: sender-dependent macros, ptr, budget or depth exhausted */
  notEvaluated: string[];
  /** the walk stopped early (budget or depth): counts are lower bounds */
  truncated: boolean;
}

/** What the walk shares across its concurrent branches: the lookups and the question budget. */
interface Walk {
  readonly lookups: SpfLookups;
  readonly maxQueries: number;
  readonly maxDepth: number;
  /** questions asked so far, the domain's own TXT included */
  asked: number;
}

/** What a part of the walk found; a parent merges its parts' findings in record order. */
interface Findings {
  lookupCount: number;
  voidLookupCount: number;
  truncated: boolean;
  errors: string[];
  warnings: string[];
  temporaryErrors: string[];
  notEvaluated: string[];
}

/** What one term of a record found: its findings, its notes and void lookups on the record's node, its child node. */
interface TermOutcome {
  readonly found: Findings;
  readonly notes: string[];
  voids: number;
  child: SpfTreeNode | null;
}

function noFindings(): Findings {
  return {
    lookupCount: 0,
    voidLookupCount: 0,
    truncated: false,
    errors: [],
    warnings: [],
    temporaryErrors: [],
    notEvaluated: [],
  };
}

function mergeFindings(into: Findings, from: Findings): void {
  into.lookupCount += from.lookupCount;
  into.voidLookupCount += from.voidLookupCount;
  into.truncated ||= from.truncated;
  into.errors.push(...from.errors);
  into.warnings.push(...from.warnings);
  into.temporaryErrors.push(...from.temporaryErrors);
  into.notEvaluated.push(...from.notEvaluated);
}

const MAX_LISTED = 100; // findings kept per list: a 64 KiB record could otherwise yield thousands

/**
 * Looks up `domain`'s SPF record with `lookups.txt` and walks its tree. A failure of that first
 * question is thrown (the check could not run); failures further down are temperror findings.
 */
export async function checkSpf(
  domain: string,
  lookups: SpfLookups,
  options: SpfWalkOptions = {},
): Promise<SpfCheckResult> {
  const walk: Walk = {
    lookups,
    maxQueries: options.maxQueries ?? SPF_WALK_MAX_QUESTIONS,
    maxDepth: options.maxDepth ?? 10,
    asked: 1,
  };
  const state = noFindings();
  const root = canonicalName(domain);
  const answer = await lookups.txt(root);
  const records = selectSpfRecords(answer.rcode === 'NXDOMAIN' ? [] : answer.records);
  const first = records[0];
  if (first === undefined) {
    return {
      domain,
      found: false,
      record: '',
      mechanisms: [],
      multiple: false,
      recordCount: 0,
      terms: [],
      lookupTree: null,
      lookupCount: 0,
      lookupLimit: SPF_LOOKUP_LIMIT,
      voidLookupCount: 0,
      voidLookupLimit: SPF_VOID_LOOKUP_LIMIT,
      evaluation: 'none',
      errors: [],
      warnings: [],
      temporaryErrors: [],
      notEvaluated: [],
      truncated: false,
    };
  }

  const node = newNode(root, 'root');
  if (records.length > 1) {
    node.status = 'multiple-records';
    state.errors.push(
      `${root} has ${records.length} SPF records; receivers return permerror (RFC 7208 §4.5). The first is analysed.`,
    );
  }
  node.record = first;
  const parsed = await evaluateRecord(walk, node, first, 0, [root], state);

  const atLeast = state.truncated ? 'at least ' : '';
  if (state.lookupCount > SPF_LOOKUP_LIMIT) {
    state.errors.push(
      `${atLeast}${state.lookupCount} DNS-querying terms (include, a, mx, ptr, exists, redirect) exceed the limit of ${SPF_LOOKUP_LIMIT} (RFC 7208 §4.6.4)`,
    );
  }
  if (state.voidLookupCount > SPF_VOID_LOOKUP_LIMIT) {
    state.errors.push(
      `${atLeast}${state.voidLookupCount} void lookups exceed the limit of ${SPF_VOID_LOOKUP_LIMIT} (RFC 7208 §4.6.4)`,
    );
  }

  const errors = capList(state.errors);
  const temporaryErrors = capList(state.temporaryErrors);
  return {
    domain,
    found: true,
    record: first,
    mechanisms: parsed.terms.map((t) => t.text),
    multiple: records.length > 1,
    recordCount: records.length,
    terms: parsed.terms,
    lookupTree: node,
    lookupCount: state.lookupCount,
    lookupLimit: SPF_LOOKUP_LIMIT,
    voidLookupCount: state.voidLookupCount,
    voidLookupLimit: SPF_VOID_LOOKUP_LIMIT,
    evaluation: errors.length > 0 ? 'permerror' : temporaryErrors.length > 0 ? 'temperror' : 'ok',
    errors,
    warnings: capList(state.warnings),
    temporaryErrors,
    notEvaluated: capList(state.notEvaluated),
    truncated: state.truncated,
  };
}

function newNode(domain: string, via: SpfTreeNode['via']): SpfTreeNode {
  return { domain, via, status: 'ok', record: null, lookups: 0, voidLookups: 0, children: [], notes: [] };
}

/**
 * Evaluates one record into `found`. Every DNS-querying term starts at once — sibling includes and
 * their subtrees are asked concurrently, so a tree costs about its longest chain of dependent
 * questions, not the sum of its branches — and what each term found is merged in record order, so
 * the counts, findings, notes and children read exactly as a sequential walk's would.
 */
async function evaluateRecord(
  walk: Walk,
  node: SpfTreeNode,
  record: string,
  depth: number,
  path: readonly string[],
  found: Findings,
): Promise<ParsedSpfRecord> {
  const parsed = parseSpfRecord(record);
  if (parsed.errors.length > 0 && node.status === 'ok') node.status = 'invalid';
  for (const e of parsed.errors) found.errors.push(`${node.domain}: ${e}`);
  for (const w of parsed.warnings) found.warnings.push(`${node.domain}: ${w}`);
  // An included record without "all" is normal (the include just does not match); for the
  // domain itself or a redirect target it decides what unlisted hosts get.
  if (parsed.endsNeutral && node.via !== 'include') {
    found.warnings.push(
      `${node.domain}: no "all" mechanism and no redirect=: mail from other hosts gets the default result neutral (RFC 7208 §4.7)`,
    );
  }

  const parts: Promise<TermOutcome>[] = [];
  const term = (work: (out: TermOutcome) => Promise<void> | void): void => {
    // Each DNS-querying term counts once toward the limit (§4.6.4), whatever its answer.
    found.lookupCount += 1;
    node.lookups += 1;
    const out: TermOutcome = { found: noFindings(), notes: [], voids: 0, child: null };
    parts.push(Promise.resolve(work(out)).then(() => out));
  };
  const hasAll = parsed.terms.some((t) => t.kind === 'mechanism' && t.name === 'all');
  for (const t of parsed.terms) {
    if (t.kind !== 'mechanism') continue;
    switch (t.name) {
      case 'include':
        term((out) => follow(walk, node, t.text, t.domainSpec ?? '', 'include', depth, path, out));
        break;
      case 'a':
        term((out) => resolveAddressTerm(walk, node, t, ['a', 'aaaa'], out));
        break;
      case 'exists':
        // exists always asks for A records, whatever the sender's address family (§5.7).
        term((out) => resolveAddressTerm(walk, node, t, ['a'], out));
        break;
      case 'mx':
        term((out) => resolveMxTerm(walk, node, t, out));
        break;
      case 'ptr':
        term((out) =>
          noteNotEvaluated(out, `${node.domain}: ${t.text} not evaluated (depends on the sender's address)`),
        );
        break;
      default:
        break;
    }
  }
  // §6.1: redirect applies only when no mechanism matched, and never beside an "all".
  const redirect = parsed.terms.find((t): t is SpfModifier => t.kind === 'modifier' && t.name === 'redirect');
  if (redirect && !hasAll)
    term((out) => follow(walk, node, redirect.text, redirect.value, 'redirect', depth, path, out));

  for (const out of await Promise.all(parts)) {
    mergeFindings(found, out.found);
    node.voidLookups += out.voids;
    for (const note of out.notes) if (node.notes.length < MAX_LISTED) node.notes.push(note);
    if (out.child) node.children.push(out.child);
  }
  return parsed;
}

function countVoid(out: TermOutcome, what: string): void {
  out.found.voidLookupCount += 1;
  out.voids += 1;
  out.notes.push(`${what}: void lookup (no records)`);
}

function noteNotEvaluated(out: TermOutcome, note: string): void {
  out.found.notEvaluated.push(note);
  out.notes.push(note);
}

function targetOf(node: SpfTreeNode, termText: string, spec: string, out: TermOutcome): string | null {
  const expansion = expandDomainSpec(spec, node.domain);
  if ('senderMacros' in expansion) {
    noteNotEvaluated(
      out,
      `${node.domain}: ${termText} not evaluated (macro %{${expansion.senderMacros.join('}, %{')}} depends on the sender)`,
    );
    return null;
  }
  // A %{d} expansion can still break DNS name rules (a label over 63 characters), and a literal
  // may hold a backslash, which SPF allows but no DNS name can carry: never ask for those.
  const invalid =
    domainNameError(expansion.domain) ??
    (expansion.domain.includes('\\') ? `"${clip(expansion.domain)}" contains a backslash` : null);
  if (invalid) {
    out.found.errors.push(`${node.domain}: ${termText} expands to an invalid name: ${invalid}`);
    return null;
  }
  return expansion.domain;
}

/**
 * Asks one question within the budget. null: budget spent (noted); ProbeError: the question failed.
 * The budget is shared by the concurrent branches: which terms go unasked when a tree needs more than
 * it depends on the order answers arrive — only in a tree that is past the lookup limit anyway (a
 * tree within the limit of 10 needs at most 21 questions).
 */
async function ask(
  walk: Walk,
  node: SpfTreeNode,
  lookup: RecordLookup,
  name: string,
  termText: string,
  out: TermOutcome,
): Promise<TxtAnswer | Error | null> {
  if (walk.asked >= walk.maxQueries) {
    out.found.truncated = true;
    noteNotEvaluated(out, `${node.domain}: ${termText} not evaluated (query budget of ${walk.maxQueries} spent)`);
    return null;
  }
  walk.asked += 1;
  try {
    return await lookup(name);
  } catch (e) {
    // The request ending is not a finding about the record: stop the walk.
    if (isProbeError(e) && e.kind !== 'ABORTED') return e;
    throw e;
  }
}

async function follow(
  walk: Walk,
  node: SpfTreeNode,
  termText: string,
  spec: string,
  via: 'include' | 'redirect',
  depth: number,
  path: readonly string[],
  out: TermOutcome,
): Promise<void> {
  const target = targetOf(node, termText, spec, out);
  if (target === null) return;
  if (path.includes(target)) {
    const child = newNode(target, via);
    child.status = 'loop';
    out.child = child;
    out.found.errors.push(`${via} loop: ${[...path, target].join(' → ')}`);
    return;
  }
  if (depth + 1 > walk.maxDepth) {
    out.found.truncated = true;
    noteNotEvaluated(out, `${node.domain}: ${termText} not evaluated (nesting deeper than ${walk.maxDepth})`);
    return;
  }
  const answer = await ask(walk, node, walk.lookups.txt, target, termText, out);
  if (answer === null) return;
  const child = newNode(target, via);
  out.child = child;
  if (answer instanceof Error) {
    child.status = 'temperror';
    out.found.temporaryErrors.push(`${via}:${target}: ${answer.message}`);
    return;
  }
  const txts = answer.rcode === 'NXDOMAIN' ? [] : answer.records;
  if (txts.length === 0) countVoid(out, termText);
  const records = selectSpfRecords(txts);
  const first = records[0];
  if (first === undefined) {
    child.status = 'no-record';
    out.found.errors.push(`${via}:${target} has no SPF record (RFC 7208 ${via === 'include' ? '§5.2' : '§6.1'})`);
    return;
  }
  if (records.length > 1) {
    child.status = 'multiple-records';
    out.found.errors.push(`${via}:${target} has ${records.length} SPF records (RFC 7208 §4.5)`);
  }
  child.record = first;
  await evaluateRecord(walk, child, first, depth + 1, [...path, target], out.found);
}

async function resolveAddressTerm(
  walk: Walk,
  node: SpfTreeNode,
  term: SpfMechanism,
  families: ('a' | 'aaaa')[],
  out: TermOutcome,
): Promise<void> {
  const target = targetOf(node, term.text, term.domainSpec ?? node.domain, out);
  if (target === null) return;
  let asked = false;
  for (const family of families) {
    const lookup = walk.lookups[family];
    if (!lookup) continue;
    const answer = await ask(walk, node, lookup, target, term.text, out);
    if (answer === null) return;
    asked = true;
    if (answer instanceof Error) {
      out.found.temporaryErrors.push(`${term.text} (${target}): ${answer.message}`);
      return;
    }
    if (answer.rcode === 'NOERROR' && answer.records.length > 0) return;
  }
  // a void lookup: no address in any family asked (a linter cannot know the sender's family)
  if (asked) countVoid(out, term.text);
}

async function resolveMxTerm(walk: Walk, node: SpfTreeNode, term: SpfMechanism, out: TermOutcome): Promise<void> {
  const lookup = walk.lookups.mx;
  if (!lookup) return;
  const target = targetOf(node, term.text, term.domainSpec ?? node.domain, out);
  if (target === null) return;
  const answer = await ask(walk, node, lookup, target, term.text, out);
  if (answer === null) return;
  if (answer instanceof Error) {
    out.found.temporaryErrors.push(`${term.text} (${target}): ${answer.message}`);
    return;
  }
  const exchanges = answer.rcode === 'NXDOMAIN' ? [] : answer.records;
  if (exchanges.length === 0) {
    countVoid(out, term.text);
    return;
  }
  // §4.6.4: each exchange needs an address lookup, and one mx mechanism may cause at most 10.
  if (exchanges.length > SPF_MX_ADDRESS_LIMIT) {
    out.found.errors.push(
      `${node.domain}: ${term.text} has ${exchanges.length} MX hosts; evaluating it needs more than ${SPF_MX_ADDRESS_LIMIT} address lookups (RFC 7208 §4.6.4)`,
    );
  }
}

function capList(list: string[]): string[] {
  return list.length <= MAX_LISTED ? list : [...list.slice(0, MAX_LISTED), `… and ${list.length - MAX_LISTED} more`];
}
