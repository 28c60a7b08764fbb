/**
 * The Observatory's CSP parser (1.4.8, src/analyzer/cspParser.js), which is not the CSP3 algorithm:
 * - each policy has CR and LF removed and is trimmed; an empty one, or one shorter than "img-src" less a
 *   character, makes the whole set invalid;
 * - directives are split on ";", names lower-cased, sources split on white space and lower-cased; a `-src`
 *   directive without sources means 'none';
 * - a directive repeated within one policy makes the set invalid, except report-uri and report-to, which
 *   are kept once and noted (`duplicates`);
 * - over several policies (headers and metas together), a directive keeps the sources the policies agree
 *   on: the package sorts the combined sources, drops a source of the same policy that merely extends the
 *   one before it (https://a.example/x after https://a.example/), and keeps a source of a later policy when
 *   the one before it is a path-prefix of it; a directive left with nothing means 'none'.
 */

export type ParsedCsp = Map<string, Set<string>>;

export interface CspParse {
  directives: ParsedCsp;
  /** report-uri / report-to repeated within a policy */
  duplicates: Set<string>;
}

export class CspSyntaxError extends Error {}

const SHORTEST_POLICY_LENGTH = 'img-src'.length - 1;
const ALLOWED_DUPLICATES: ReadonlySet<string> = new Set(['report-uri', 'report-to']);
/** Directives a <meta> policy may not carry (WHATWG HTML, the http-equiv CSP state). */
const DIRECTIVES_NOT_IN_META = ['frame-ancestors', 'report-uri', 'sandbox'];

interface Source {
  source: string;
  policy: number;
  keep: boolean;
}

/** The package sorts sources with an English collator, not by code unit. */
const compareText = new Intl.Collator('en').compare;

/** Parses policies; throws CspSyntaxError where the package's parser throws. */
export function parseCsp(policies: readonly string[]): CspParse {
  const cleaned = policies.map((p) => p.replaceAll(/[\r\n]/g, '').trim());
  const duplicates = new Set<string>();
  if (cleaned.length === 0) return { directives: new Map(), duplicates };
  for (const policy of cleaned) {
    if (!policy || policy.length < SHORTEST_POLICY_LENGTH) throw new CspSyntaxError(`invalid policy: ${policy}`);
  }
  const combined = new Map<string, Source[]>();
  for (const [index, policy] of cleaned.entries()) {
    const seen = new Set<string>();
    for (const [rawName, ...rawSources] of policy.split(';').map((entry) => entry.trim().split(/\s+/))) {
      if (!rawName) continue;
      const name = rawName.toLowerCase();
      if (seen.has(name)) {
        if (!ALLOWED_DUPLICATES.has(name)) throw new CspSyntaxError(`duplicate directive ${name} in policy ${index}`);
        duplicates.add(name);
      } else {
        seen.add(name);
      }
      const keep = index === 0;
      const sources: Source[] = rawSources.map((raw) => ({
        source: raw.trim().toLocaleLowerCase(),
        policy: index,
        keep,
      }));
      if (sources.length === 0 && name.endsWith('-src')) sources.push({ source: "'none'", policy: index, keep });
      const merged = index === 0 ? [...sources] : [...(combined.get(name) ?? []), ...sources];
      merged.sort((a, b) => compareText(a.source, b.source));
      for (let i = 1; i < merged.length; i++) {
        const current = merged[i]!;
        const previous = merged[i - 1]!;
        if (current.policy === previous.policy && current.source.startsWith(previous.source)) current.keep = false;
        if (current.policy !== previous.policy && pathPartMatch(previous.source, current.source)) current.keep = true;
      }
      const kept = merged.filter((s) => s.keep);
      combined.set(name, kept);
      // with more policies to come, a source of the first survives only if a later one agrees
      if (index === 0 && policies.length > 1) for (const s of kept) s.keep = false;
    }
  }
  const directives: ParsedCsp = new Map();
  for (const [name, sources] of combined) {
    directives.set(name, sources.length > 0 ? new Set(sources.map((s) => s.source)) : new Set(["'none'"]));
  }
  return { directives, duplicates };
}

/** A <meta> policy: parsed the same way, then the directives a meta may not set are dropped. */
export function parseMetaCsp(policies: readonly string[]): CspParse {
  const parsed = parseCsp(policies);
  for (const name of DIRECTIVES_NOT_IN_META) parsed.directives.delete(name);
  return parsed;
}

/** The package's pathPartMatch: whether source `a` covers `b` path piece by piece (a trailing "/" is a prefix). */
function pathPartMatch(a: string, b: string): boolean {
  if (a.length === 0) return true;
  if (a === '/' && b.length === 0) return true;
  const exact = !a.endsWith('/');
  const piecesA = a.split('/');
  const piecesB = b.split('/');
  if (piecesA.length > piecesB.length) return false;
  if (exact && piecesA.length !== piecesB.length) return false;
  if (!exact) piecesA.pop();
  for (let i = 0; i < piecesA.length; i++) {
    if (safeDecode(piecesA[i]!) !== safeDecode(piecesB[i]!)) return false;
  }
  return true;
}

/**
 * decodeURIComponent, which throws on a malformed escape: the package lets that escape its parser, which
 * makes the whole policy set invalid, so the same error class is thrown here.
 */
function safeDecode(piece: string): string {
  try {
    return decodeURIComponent(piece);
  } catch {
    throw new CspSyntaxError(`malformed escape in ${piece}`);
  }
}
