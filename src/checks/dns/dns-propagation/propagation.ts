/**
 * The verdict of dns-propagation (decisions §4, §5) from what each public resolver answered.
 *
 * - expected: the authoritative answer when the caller got one (the domain's own name servers,
 *   asked directly); otherwise the most common answer among the resolvers that answered
 *   ("majority"). A tie goes to the answer of the resolver that comes first in the configured
 *   resolver order, so the same outcomes always give the same verdict.
 * - matches: the resolver answered and its record set equals the expected set, ignoring order,
 *   duplicates and case (names also ignore a trailing dot; IPv6 addresses compare canonically).
 * - status: propagated when every answering resolver matches, not-propagated when none does,
 *   partial otherwise. When no resolver answered the check could not run: the caller answers 502
 *   (see `allResolversFailed`).
 * - unreachable: the names of the resolvers that gave no answer (time-out, refusal, SERVFAIL,
 *   garbage); each of them also carries its `error`.
 */
import ipaddr from 'ipaddr.js';

export interface PropagationResolver {
  name: string;
  ip: string;
  countryCode: string;
}

export type ResolverOutcome =
  | { kind: 'answer'; resolver: PropagationResolver; records: string[]; responseTime: number }
  | { kind: 'error'; resolver: PropagationResolver; error: string; responseTime: number };

export interface PropagationEntry {
  name: string;
  ip: string;
  countryCode: string;
  records: string[];
  error: string | null;
  responseTime: number;
  matches: boolean;
}

export type PropagationStatus = 'propagated' | 'partial' | 'not-propagated';

export interface PropagationResult {
  domain: string;
  type: string;
  status: PropagationStatus;
  unreachable: string[];
  resolvers: PropagationEntry[];
  expected: string[];
  expectedSource: 'authoritative' | 'majority';
}

export interface PropagationInput {
  domain: string;
  type: string;
  outcomes: readonly ResolverOutcome[];
  /** text forms of the authoritative answer, or null when no authoritative server answered */
  authoritative: readonly string[] | null;
}

/** True when no resolver answered (an empty list included): dns-propagation then answers 502 (decisions §4). */
export function allResolversFailed(outcomes: readonly ResolverOutcome[]): boolean {
  return outcomes.every((o) => o.kind === 'error');
}

export function evaluatePropagation(input: PropagationInput): PropagationResult {
  const { type, outcomes } = input;
  const expected = input.authoritative !== null ? [...input.authoritative] : majorityAnswer(type, outcomes);
  const expectedKey = recordSetKey(type, expected);

  const resolvers = outcomes.map((o): PropagationEntry => {
    const base = {
      name: o.resolver.name,
      ip: o.resolver.ip,
      countryCode: o.resolver.countryCode,
      responseTime: o.responseTime,
    };
    if (o.kind === 'error') return { ...base, records: [], error: o.error, matches: false };
    return { ...base, records: [...o.records], error: null, matches: recordSetKey(type, o.records) === expectedKey };
  });

  const answering = outcomes.filter((o) => o.kind === 'answer').length;
  const matching = resolvers.filter((r) => r.matches).length;
  const status: PropagationStatus =
    answering > 0 && matching === answering ? 'propagated' : matching === 0 ? 'not-propagated' : 'partial';

  return {
    domain: input.domain,
    type,
    status,
    unreachable: outcomes.filter((o) => o.kind === 'error').map((o) => o.resolver.name),
    resolvers,
    expected,
    expectedSource: input.authoritative !== null ? 'authoritative' : 'majority',
  };
}

/** The most common record set among answering resolvers, as the first resolver with it wrote it; [] when none answered. */
function majorityAnswer(type: string, outcomes: readonly ResolverOutcome[]): string[] {
  const tally = new Map<string, { count: number; records: string[] }>();
  for (const o of outcomes) {
    if (o.kind !== 'answer') continue;
    const key = recordSetKey(type, o.records);
    const entry = tally.get(key);
    if (entry) entry.count += 1;
    else tally.set(key, { count: 1, records: o.records });
  }
  let best: { count: number; records: string[] } | undefined;
  // Map iteration follows insertion order, i.e. resolver order: a strict ">" keeps the earliest on ties.
  for (const entry of tally.values()) if (!best || entry.count > best.count) best = entry;
  return best ? [...best.records] : [];
}

/** A canonical key of a record set: normalised members, de-duplicated, sorted. */
export function recordSetKey(type: string, records: readonly string[]): string {
  return [...new Set(records.map((r) => normaliseRecordText(type, r)))].sort().join('\n');
}

/** Canonical text of one record of `type` for comparison (case-folded, trailing dots dropped). */
export function normaliseRecordText(type: string, text: string): string {
  const folded = text.trim().toLowerCase();
  switch (type) {
    case 'A':
    case 'AAAA':
      return ipaddr.isValid(folded) ? canonicalAddress(folded) : folded;
    case 'CNAME':
    case 'NS':
    case 'PTR':
      return stripDot(folded);
    case 'MX':
    case 'SOA':
      return folded.split(/\s+/).map(stripDot).join(' ');
    default:
      return folded;
  }
}

function canonicalAddress(address: string): string {
  const parsed = ipaddr.parse(address);
  return parsed.kind() === 'ipv6' ? (parsed as ipaddr.IPv6).toRFC5952String() : parsed.toString();
}

function stripDot(name: string): string {
  return name.length > 1 && name.endsWith('.') ? name.slice(0, -1) : name;
}
