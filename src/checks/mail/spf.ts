/**
 * SPF records (RFC 7208): selection (§4.5), the term model and its syntax (§4.6.1, §12), macro
 * handling in domain-specs (§7), and a lint-style walk of the include/redirect tree that counts
 * DNS-querying terms and void lookups against the limits of §4.6.4.
 *
 * The walk has no sender, so it evaluates every term as if nothing matched (the worst case a
 * receiver meets): each include, a, mx, ptr, exists and redirect counts once toward the limit of
 * 10, included records count as they are reached, and a domain included twice counts twice (as
 * in real evaluation). It keeps going past the limits so that the whole tree is reported, but it
 * never asks more than `maxQueries` questions nor descends more than `maxDepth` levels, so a
 * hostile record cannot make it do unbounded work.
 */
import { isIPv6 } from 'node:net';
import { isProbeError } from '../../probes/errors.js';
import type { TxtAnswer, TxtLookup } from './txt.js';
import { canonicalName } from '../../net/dns-name.js';

export const SPF_LOOKUP_LIMIT = 10;
export const SPF_VOID_LOOKUP_LIMIT = 2;
/** §4.6.4: evaluating one mx mechanism may look up at most 10 exchange addresses. */
export const SPF_MX_ADDRESS_LIMIT = 10;

export type SpfQualifier = '+' | '-' | '~' | '?';
export type SpfMechanismName = 'all' | 'include' | 'a' | 'mx' | 'ptr' | 'ip4' | 'ip6' | 'exists';

export interface SpfMechanism {
  kind: 'mechanism';
  /** the term as written */
  text: string;
  /** "+" when none is written (§4.6.2) */
  qualifier: SpfQualifier;
  name: SpfMechanismName;
  /** include/exists (required), a/mx/ptr (optional) */
  domainSpec: string | null;
  /** ip4/ip6 network address */
  network: string | null;
  ip4Prefix: number | null;
  ip6Prefix: number | null;
}

export interface SpfModifier {
  kind: 'modifier';
  text: string;
  /** lower case; "redirect" and "exp" are the defined ones, others are ignored by receivers (§6) */
  name: string;
  value: string;
}

export interface SpfInvalidTerm {
  kind: 'invalid';
  text: string;
  error: string;
}

export type SpfTerm = SpfMechanism | SpfModifier | SpfInvalidTerm;

export interface ParsedSpfRecord {
  terms: SpfTerm[];
  /** permerror reasons: syntax (§4.6), unknown mechanisms (§5), repeated redirect/exp (§6) */
  errors: string[];
  warnings: string[];
  /** no "all" and no redirect=: mail that matches nothing gets neutral (§4.7) */
  endsNeutral: boolean;
}

const VERSION = /^v=spf1(?: |$)/i;

/** §4.5: exactly "v=spf1" (case-insensitive), then a space or the end. "v=spf10" is not SPF. */
export function isSpfRecord(txt: string): boolean {
  return VERSION.test(txt);
}

export function selectSpfRecords(txts: readonly string[]): string[] {
  return txts.filter(isSpfRecord);
}

export function parseSpfRecord(record: string): ParsedSpfRecord {
  const terms = record
    .slice('v=spf1'.length)
    .split(' ')
    .filter((t) => t !== '')
    .map(parseTerm);
  const errors: string[] = [];
  const warnings: string[] = [];

  for (const term of terms) if (term.kind === 'invalid') errors.push(`"${clip(term.text)}": ${term.error}`);

  for (const name of ['redirect', 'exp']) {
    const count = terms.filter((t) => t.kind === 'modifier' && t.name === name).length;
    if (count > 1) errors.push(`${name}= appears ${count} times; it may appear at most once (RFC 7208 §6)`);
  }

  const mechanisms = terms.filter((t): t is SpfMechanism => t.kind === 'mechanism');
  const allIndex = terms.findIndex((t) => t.kind === 'mechanism' && t.name === 'all');
  const all = mechanisms.find((m) => m.name === 'all');
  if (mechanisms.some((m) => m.name === 'ptr'))
    warnings.push('the ptr mechanism is slow and unreliable and should not be used (RFC 7208 §5.5)');
  if (all && all.qualifier === '+') warnings.push(`"${all.text}" lets every host on the Internet pass SPF`);
  if (allIndex >= 0 && terms.slice(allIndex + 1).some((t) => t.kind === 'mechanism')) {
    warnings.push('mechanisms after "all" are never evaluated (RFC 7208 §5.1)');
  }
  const redirect = terms.some((t) => t.kind === 'modifier' && t.name === 'redirect');
  if (redirect && all) warnings.push('redirect= is ignored because the record has an "all" mechanism (RFC 7208 §6.1)');
  for (const t of terms) {
    if (t.kind === 'modifier' && t.name !== 'redirect' && t.name !== 'exp')
      warnings.push(`unknown modifier "${t.name}" is ignored (RFC 7208 §6)`);
  }
  return { terms, errors, warnings, endsNeutral: !redirect && !all };
}

const MODIFIER = /^([A-Za-z][A-Za-z0-9._-]*)=(.*)$/s;
const MECHANISM = /^([+\-~?]?)([A-Za-z][A-Za-z0-9]*)(.*)$/s;
const IP4_PREFIX = /^(?:0|[1-9]\d?)$/;
const IP6_PREFIX = /^(?:0|[1-9]\d{0,2})$/;

export function parseTerm(text: string): SpfTerm {
  const invalid = (error: string): SpfInvalidTerm => ({ kind: 'invalid', text, error });
  const modifier = MODIFIER.exec(text);
  if (modifier) {
    const name = (modifier[1] ?? '').toLowerCase();
    const value = modifier[2] ?? '';
    const error = name === 'redirect' || name === 'exp' ? domainSpecError(value) : macroStringError(value);
    return error ? invalid(`${name}=: ${error}`) : { kind: 'modifier', text, name, value };
  }
  const match = MECHANISM.exec(text);
  if (!match) return invalid('neither a mechanism nor a modifier');
  const qualifier = (match[1] || '+') as SpfQualifier;
  const name = (match[2] ?? '').toLowerCase();
  const rest = match[3] ?? '';
  const mechanism = (m: Partial<SpfMechanism> & { name: SpfMechanismName }): SpfMechanism => ({
    kind: 'mechanism',
    text,
    qualifier,
    domainSpec: null,
    network: null,
    ip4Prefix: null,
    ip6Prefix: null,
    ...m,
  });

  switch (name) {
    case 'all':
      return rest === '' ? mechanism({ name }) : invalid('"all" takes no argument');
    case 'include':
    case 'exists': {
      if (!rest.startsWith(':')) return invalid(`"${name}" needs ":domain"`);
      const error = domainSpecError(rest.slice(1));
      return error ? invalid(error) : mechanism({ name, domainSpec: rest.slice(1) });
    }
    case 'ptr': {
      if (rest === '') return mechanism({ name });
      if (!rest.startsWith(':')) return invalid('"ptr" takes only an optional ":domain"');
      const error = domainSpecError(rest.slice(1));
      return error ? invalid(error) : mechanism({ name, domainSpec: rest.slice(1) });
    }
    case 'a':
    case 'mx': {
      // a / mx = name [ ":" domain-spec ] [ "/" ip4-cidr ] [ "//" ip6-cidr ]
      if (rest === ':' || rest.startsWith(':/')) return invalid('empty domain-spec');
      // Prefix lengths are digits only, so a "/" delimiter inside a macro stays in the domain-spec.
      const parts = /^(?::(.+?))?(?:\/(\d+))?(?:\/\/(\d+))?$/s.exec(rest);
      if (!parts) return invalid(`"${name}" is followed by something other than ":domain" and "/prefix" lengths`);
      const [, spec, ip4, ip6] = parts;
      if (spec !== undefined) {
        const error = domainSpecError(spec);
        if (error) return invalid(error);
      }
      if (ip4 !== undefined && !validPrefix(ip4, IP4_PREFIX, 32))
        return invalid(`"/${ip4}" is not an IPv4 prefix length (0-32)`);
      if (ip6 !== undefined && !validPrefix(ip6, IP6_PREFIX, 128))
        return invalid(`"//${ip6}" is not an IPv6 prefix length (0-128)`);
      return mechanism({
        name,
        domainSpec: spec ?? null,
        ip4Prefix: ip4 === undefined ? null : Number(ip4),
        ip6Prefix: ip6 === undefined ? null : Number(ip6),
      });
    }
    case 'ip4': {
      const parts = /^:([^/]*)(?:\/([^/]*))?$/.exec(rest);
      if (!parts) return invalid('"ip4" needs ":address" with an optional "/prefix"');
      const [, network = '', prefix] = parts;
      if (!isDottedQuad(network)) return invalid(`"${clip(network)}" is not an IPv4 address`);
      if (prefix !== undefined && !validPrefix(prefix, IP4_PREFIX, 32))
        return invalid(`"/${prefix}" is not an IPv4 prefix length (0-32)`);
      return mechanism({ name, network, ip4Prefix: prefix === undefined ? null : Number(prefix) });
    }
    case 'ip6': {
      const parts = /^:([^/]*)(?:\/([^/]*))?$/.exec(rest);
      if (!parts) return invalid('"ip6" needs ":address" with an optional "/prefix"');
      const [, network = '', prefix] = parts;
      if (!isIPv6(network)) return invalid(`"${clip(network)}" is not an IPv6 address`);
      if (prefix !== undefined && !validPrefix(prefix, IP6_PREFIX, 128))
        return invalid(`"/${prefix}" is not an IPv6 prefix length (0-128)`);
      return mechanism({ name, network, ip6Prefix: prefix === undefined ? null : Number(prefix) });
    }
    default:
      return invalid(`unknown mechanism "${clip(name)}" (RFC 7208 §5: permerror)`);
  }
}

function validPrefix(text: string, pattern: RegExp, max: number): boolean {
  return pattern.test(text) && Number(text) <= max;
}

// §12: ip4-network = qnum "." qnum "." qnum "." qnum, qnum a decimal octet without leading zeros.
function isDottedQuad(text: string): boolean {
  const octets = text.split('.');
  return octets.length === 4 && octets.every((o) => /^(?:0|[1-9]\d{0,2})$/.test(o) && Number(o) <= 255);
}

/** Letters a domain-spec may use (§7.2); c, r and t belong to explanation strings only. */
const DOMAIN_MACRO_LETTERS = 'slodiphv';
// Sticky: matched in place at an index, so a record full of macros is scanned in linear time.
const MACRO_EXPAND = /%\{([A-Za-z])(\d*)(r?)([.\-+,/_=]*)\}/iy;

function macroAt(text: string, index: number): RegExpExecArray | null {
  MACRO_EXPAND.lastIndex = index;
  return MACRO_EXPAND.exec(text);
}

interface MacroScan {
  error: string | null;
  /** macro letters used, lower case */
  letters: string[];
  /** whether the string ends with a macro-expand (which may stand for the domain-end, §12) */
  endsWithMacro: boolean;
  /** the literal text after the last macro-expand */
  literalTail: string;
}

function scanMacroString(text: string): MacroScan {
  const letters: string[] = [];
  let endsWithMacro = false;
  let tailStart = 0;
  for (let i = 0; i < text.length; ) {
    const code = text.charCodeAt(i);
    if (text[i] === '%') {
      const next = text[i + 1];
      if (next === '%' || next === '_' || next === '-') {
        i += 2;
      } else {
        const m = macroAt(text, i);
        if (!m)
          return {
            error: `invalid macro at "${clip(text.slice(i))}" (RFC 7208 §7.1)`,
            letters,
            endsWithMacro,
            literalTail: '',
          };
        const letter = (m[1] ?? '').toLowerCase();
        if (!DOMAIN_MACRO_LETTERS.includes(letter)) {
          return {
            error: `macro letter "${m[1]}" is not allowed here (RFC 7208 §7.2)`,
            letters,
            endsWithMacro,
            literalTail: '',
          };
        }
        if (m[2] !== '' && Number(m[2]) === 0)
          return {
            error: 'a macro digit transformer must not be zero (RFC 7208 §7.3)',
            letters,
            endsWithMacro,
            literalTail: '',
          };
        letters.push(letter);
        i += m[0].length;
      }
      endsWithMacro = true;
      tailStart = i;
    } else if (code >= 0x21 && code <= 0x7e) {
      endsWithMacro = false;
      i += 1;
    } else {
      return {
        error: `character ${JSON.stringify(text[i])} is not allowed (RFC 7208 §7.1)`,
        letters,
        endsWithMacro,
        literalTail: '',
      };
    }
  }
  return { error: null, letters, endsWithMacro, literalTail: text.slice(tailStart) };
}

function macroStringError(text: string): string | null {
  return scanMacroString(text).error;
}

const TOPLABEL = /^(?:[A-Za-z0-9]*[A-Za-z][A-Za-z0-9]*|[A-Za-z0-9]+-[A-Za-z0-9-]*[A-Za-z0-9])$/;

/** §12 domain-spec = macro-string domain-end; domain-end = "." toplabel ["."] / macro-expand. */
export function domainSpecError(spec: string): string | null {
  if (spec === '') return 'empty domain-spec';
  const scan = scanMacroString(spec);
  if (scan.error) return scan.error;
  if (!scan.endsWithMacro) {
    const tail = scan.literalTail.endsWith('.') ? scan.literalTail.slice(0, -1) : scan.literalTail;
    const dot = tail.lastIndexOf('.');
    const top = tail.slice(dot + 1);
    if (dot < 0 || top.length > 63 || !TOPLABEL.test(top)) {
      return `"${clip(spec)}" does not end in a valid top-level label (RFC 7208 §7.1 domain-end)`;
    }
  }
  if (scan.letters.length === 0) return domainNameError(spec);
  return null;
}

function domainNameError(name: string): string | null {
  const bare = name.endsWith('.') ? name.slice(0, -1) : name;
  if (bare.length > 253) return `"${clip(name)}" is longer than 253 characters`;
  for (const label of bare.split('.')) {
    if (label === '') return `"${clip(name)}" has an empty label`;
    if (label.length > 63) return `"${clip(name)}" has a label longer than 63 characters`;
  }
  return null;
}

export type DomainSpecExpansion = { domain: string } | { senderMacros: string[] };

/**
 * Expands a valid domain-spec for `currentDomain` (§7.3). Only %{d} (the domain being evaluated)
 * and the escapes %%, %_ and %- are known without a message; any other letter depends on the
 * sender, and the spec is reported unexpanded with the letters it uses.
 */
export function expandDomainSpec(spec: string, currentDomain: string): DomainSpecExpansion {
  const scan = scanMacroString(spec);
  const sender = [...new Set(scan.letters.filter((l) => l !== 'd'))];
  if (sender.length > 0) return { senderMacros: sender };
  let out = '';
  for (let i = 0; i < spec.length; ) {
    if (spec[i] !== '%') {
      out += spec[i];
      i += 1;
      continue;
    }
    const next = spec[i + 1];
    if (next === '%' || next === '_' || next === '-') {
      out += next === '%' ? '%' : next === '_' ? ' ' : '%20';
      i += 2;
      continue;
    }
    const m = macroAt(spec, i);
    if (!m) break; // unreachable for a spec that passed domainSpecError
    out += transformMacroValue(currentDomain, m[2] ?? '', m[3] === 'r' || m[3] === 'R', m[4] ?? '');
    i += m[0].length;
  }
  return { domain: truncateDomain(canonicalName(out)) };
}

function transformMacroValue(value: string, digits: string, reverse: boolean, delimiters: string): string {
  const splitter = new RegExp(`[${(delimiters || '.').replace(/[\\\]^-]/g, '\\$&')}]`);
  let parts = value.split(splitter);
  if (reverse) parts = parts.reverse();
  if (digits !== '') parts = parts.slice(-Number(digits));
  return parts.join('.');
}

/** §7.3: an expansion longer than 253 characters loses labels from the left until it fits. */
function truncateDomain(domain: string): string {
  if (domain.length <= 253) return domain;
  // The longest suffix that starts after a dot and fits: one search, not one slice per label.
  const cut = domain.indexOf('.', domain.length - 254);
  return cut < 0 ? domain : domain.slice(cut + 1);
}

/** include and redirect targets written as plain domains (for provider detection). */
export function spfIncludeTargets(terms: readonly SpfTerm[]): string[] {
  const targets: string[] = [];
  for (const t of terms) {
    const spec =
      t.kind === 'mechanism' && t.name === 'include'
        ? t.domainSpec
        : t.kind === 'modifier' && t.name === 'redirect'
          ? t.value
          : null;
    if (spec !== null && !spec.includes('%')) targets.push(canonicalName(spec));
  }
  return targets;
}

// ---------------------------------------------------------------------------------------------
// The include/redirect tree.

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
  /** questions the walk may ask, the first TXT included (default 30) */
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

interface WalkState {
  lookups: SpfLookups;
  maxQueries: number;
  maxDepth: number;
  queries: number;
  lookupCount: number;
  voidLookupCount: number;
  truncated: boolean;
  errors: string[];
  warnings: string[];
  temporaryErrors: string[];
  notEvaluated: string[];
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
  const state: WalkState = {
    lookups,
    maxQueries: options.maxQueries ?? 30,
    maxDepth: options.maxDepth ?? 10,
    queries: 1,
    lookupCount: 0,
    voidLookupCount: 0,
    truncated: false,
    errors: [],
    warnings: [],
    temporaryErrors: [],
    notEvaluated: [],
  };
  const root = normaliseDomain(domain);
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
  const parsed = await evaluateRecord(state, node, first, 0, [root]);

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

async function evaluateRecord(
  state: WalkState,
  node: SpfTreeNode,
  record: string,
  depth: number,
  path: string[],
): Promise<ParsedSpfRecord> {
  const parsed = parseSpfRecord(record);
  if (parsed.errors.length > 0 && node.status === 'ok') node.status = 'invalid';
  for (const e of parsed.errors) state.errors.push(`${node.domain}: ${e}`);
  for (const w of parsed.warnings) state.warnings.push(`${node.domain}: ${w}`);
  // An included record without "all" is normal (the include just does not match); for the
  // domain itself or a redirect target it decides what unlisted hosts get.
  if (parsed.endsNeutral && node.via !== 'include') {
    state.warnings.push(
      `${node.domain}: no "all" mechanism and no redirect=: mail from other hosts gets the default result neutral (RFC 7208 §4.7)`,
    );
  }

  const hasAll = parsed.terms.some((t) => t.kind === 'mechanism' && t.name === 'all');
  for (const term of parsed.terms) {
    if (term.kind !== 'mechanism') continue;
    switch (term.name) {
      case 'include':
        countLookup(state, node);
        await follow(state, node, term.text, term.domainSpec ?? '', 'include', depth, path);
        break;
      case 'a':
        countLookup(state, node);
        await resolveAddressTerm(state, node, term, ['a', 'aaaa']);
        break;
      case 'exists':
        countLookup(state, node);
        // exists always asks for A records, whatever the sender's address family (§5.7).
        await resolveAddressTerm(state, node, term, ['a']);
        break;
      case 'mx':
        countLookup(state, node);
        await resolveMxTerm(state, node, term);
        break;
      case 'ptr':
        countLookup(state, node);
        noteNotEvaluated(state, node, `${node.domain}: ${term.text} not evaluated (depends on the sender's address)`);
        break;
      default:
        break;
    }
  }
  // §6.1: redirect applies only when no mechanism matched, and never beside an "all".
  const redirect = parsed.terms.find((t): t is SpfModifier => t.kind === 'modifier' && t.name === 'redirect');
  if (redirect && !hasAll) {
    countLookup(state, node);
    await follow(state, node, redirect.text, redirect.value, 'redirect', depth, path);
  }
  return parsed;
}

function countLookup(state: WalkState, node: SpfTreeNode): void {
  state.lookupCount += 1;
  node.lookups += 1;
}

function countVoid(state: WalkState, node: SpfTreeNode, what: string): void {
  state.voidLookupCount += 1;
  node.voidLookups += 1;
  node.notes.push(`${what}: void lookup (no records)`);
}

function noteNotEvaluated(state: WalkState, node: SpfTreeNode, note: string): void {
  state.notEvaluated.push(note);
  if (node.notes.length < MAX_LISTED) node.notes.push(note);
}

function targetOf(state: WalkState, node: SpfTreeNode, termText: string, spec: string): string | null {
  const expansion = expandDomainSpec(spec, node.domain);
  if ('senderMacros' in expansion) {
    noteNotEvaluated(
      state,
      node,
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
    state.errors.push(`${node.domain}: ${termText} expands to an invalid name: ${invalid}`);
    return null;
  }
  return expansion.domain;
}

/** Asks one question within the budget. null: budget spent (noted); ProbeError: the question failed. */
async function ask(
  state: WalkState,
  node: SpfTreeNode,
  lookup: RecordLookup,
  name: string,
  termText: string,
): Promise<TxtAnswer | Error | null> {
  if (state.queries >= state.maxQueries) {
    state.truncated = true;
    noteNotEvaluated(
      state,
      node,
      `${node.domain}: ${termText} not evaluated (query budget of ${state.maxQueries} spent)`,
    );
    return null;
  }
  state.queries += 1;
  try {
    return await lookup(name);
  } catch (e) {
    // The request ending is not a finding about the record: stop the walk.
    if (isProbeError(e) && e.kind !== 'ABORTED') return e;
    throw e;
  }
}

async function follow(
  state: WalkState,
  node: SpfTreeNode,
  termText: string,
  spec: string,
  via: 'include' | 'redirect',
  depth: number,
  path: string[],
): Promise<void> {
  const target = targetOf(state, node, termText, spec);
  if (target === null) return;
  if (path.includes(target)) {
    const child = newNode(target, via);
    child.status = 'loop';
    node.children.push(child);
    state.errors.push(`${via} loop: ${[...path, target].join(' → ')}`);
    return;
  }
  if (depth + 1 > state.maxDepth) {
    state.truncated = true;
    noteNotEvaluated(state, node, `${node.domain}: ${termText} not evaluated (nesting deeper than ${state.maxDepth})`);
    return;
  }
  const answer = await ask(state, node, state.lookups.txt, target, termText);
  if (answer === null) return;
  const child = newNode(target, via);
  node.children.push(child);
  if (answer instanceof Error) {
    child.status = 'temperror';
    state.temporaryErrors.push(`${via}:${target}: ${answer.message}`);
    return;
  }
  const txts = answer.rcode === 'NXDOMAIN' ? [] : answer.records;
  if (txts.length === 0) countVoid(state, node, termText);
  const records = selectSpfRecords(txts);
  const first = records[0];
  if (first === undefined) {
    child.status = 'no-record';
    state.errors.push(`${via}:${target} has no SPF record (RFC 7208 ${via === 'include' ? '§5.2' : '§6.1'})`);
    return;
  }
  if (records.length > 1) {
    child.status = 'multiple-records';
    state.errors.push(`${via}:${target} has ${records.length} SPF records (RFC 7208 §4.5)`);
  }
  child.record = first;
  await evaluateRecord(state, child, first, depth + 1, [...path, target]);
}

async function resolveAddressTerm(
  state: WalkState,
  node: SpfTreeNode,
  term: SpfMechanism,
  families: ('a' | 'aaaa')[],
): Promise<void> {
  const target = targetOf(state, node, term.text, term.domainSpec ?? node.domain);
  if (target === null) return;
  let asked = false;
  for (const family of families) {
    const lookup = state.lookups[family];
    if (!lookup) continue;
    const answer = await ask(state, node, lookup, target, term.text);
    if (answer === null) return;
    asked = true;
    if (answer instanceof Error) {
      state.temporaryErrors.push(`${term.text} (${target}): ${answer.message}`);
      return;
    }
    if (answer.rcode === 'NOERROR' && answer.records.length > 0) return;
  }
  // a void lookup: no address in any family asked (a linter cannot know the sender's family)
  if (asked) countVoid(state, node, term.text);
}

async function resolveMxTerm(state: WalkState, node: SpfTreeNode, term: SpfMechanism): Promise<void> {
  const lookup = state.lookups.mx;
  if (!lookup) return;
  const target = targetOf(state, node, term.text, term.domainSpec ?? node.domain);
  if (target === null) return;
  const answer = await ask(state, node, lookup, target, term.text);
  if (answer === null) return;
  if (answer instanceof Error) {
    state.temporaryErrors.push(`${term.text} (${target}): ${answer.message}`);
    return;
  }
  const exchanges = answer.rcode === 'NXDOMAIN' ? [] : answer.records;
  if (exchanges.length === 0) {
    countVoid(state, node, term.text);
    return;
  }
  // §4.6.4: each exchange needs an address lookup, and one mx mechanism may cause at most 10.
  if (exchanges.length > SPF_MX_ADDRESS_LIMIT) {
    state.errors.push(
      `${node.domain}: ${term.text} has ${exchanges.length} MX hosts; evaluating it needs more than ${SPF_MX_ADDRESS_LIMIT} address lookups (RFC 7208 §4.6.4)`,
    );
  }
}

function normaliseDomain(domain: string): string {
  return canonicalName(domain);
}

function capList(list: string[]): string[] {
  return list.length <= MAX_LISTED ? list : [...list.slice(0, MAX_LISTED), `… and ${list.length - MAX_LISTED} more`];
}

function clip(s: string): string {
  return s.length > 60 ? `${s.slice(0, 60)}…` : s;
}
