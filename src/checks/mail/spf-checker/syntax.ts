/**
 * SPF record syntax (RFC 7208): selection (§4.5), the term model and its grammar (§4.6.1, §12), and the
 * rules of a domain-spec (§7.1). Pure: no lookups.
 */
import { isIPv6 } from 'node:net';
import { canonicalName } from '../../../net/dns-name.js';
import { clip, macroStringError, scanMacroString } from './macro.js';

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

/** ip4 and ip6 (RFC 7208 §5.6): an address of the family, then an optional prefix length. */
const IP_MECHANISMS = {
  ip4: { label: 'IPv4', isAddress: isDottedQuad, prefix: IP4_PREFIX, maxPrefix: 32, prefixField: 'ip4Prefix' },
  ip6: { label: 'IPv6', isAddress: isIPv6, prefix: IP6_PREFIX, maxPrefix: 128, prefixField: 'ip6Prefix' },
} as const;

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
    case 'ip4':
    case 'ip6': {
      const family = IP_MECHANISMS[name];
      const parts = /^:([^/]*)(?:\/([^/]*))?$/.exec(rest);
      if (!parts) return invalid(`"${name}" needs ":address" with an optional "/prefix"`);
      const [, network = '', prefix] = parts;
      if (!family.isAddress(network)) return invalid(`"${clip(network)}" is not an ${family.label} address`);
      if (prefix !== undefined && !validPrefix(prefix, family.prefix, family.maxPrefix))
        return invalid(`"/${prefix}" is not an ${family.label} prefix length (0-${family.maxPrefix})`);
      return mechanism({ name, network, [family.prefixField]: prefix === undefined ? null : Number(prefix) });
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

export function domainNameError(name: string): string | null {
  const bare = name.endsWith('.') ? name.slice(0, -1) : name;
  if (bare.length > 253) return `"${clip(name)}" is longer than 253 characters`;
  for (const label of bare.split('.')) {
    if (label === '') return `"${clip(name)}" has an empty label`;
    if (label.length > 63) return `"${clip(name)}" has a label longer than 63 characters`;
  }
  return null;
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
