/**
 * content-security-policy (Observatory 1.4.8, src/analyzer/tests/csp.js): the Content-Security-Policy
 * headers of the graded response and the CSP metas of its document, parsed together (csp-parser.ts). The
 * first rule that applies names the result, in the package's order: unsafe-inline (script-src with
 * 'unsafe-inline', data: or a broad source, or a broad object-src), insecure scheme in active content,
 * unsafe-eval, insecure scheme in passive content (img-src, media-src), unsafe sources in style-src only,
 * default-src 'none', else implemented without unsafe. A nonce or hash cancels 'unsafe-inline' (CSP3
 * §8.4); 'strict-dynamic' with a nonce or hash drops the scheme, 'self' and 'unsafe-inline' sources of
 * script-src, and without one it makes the policy invalid.
 *
 * `frameAncestors` is also returned: x-frame-options passes when the parsed policy (headers and metas
 * together, as the package reads it there) has frame-ancestors.
 */
import { type CspParse, parseCsp, parseMetaCsp } from './csp-parser.js';
import type { ObservatoryInputs } from './inputs.js';
import type { ObservatoryResult, TestOutcome } from './results.js';
import { headerValues } from './header-values.js';

export interface CspFindings extends TestOutcome {
  /** the combined policy has a frame-ancestors directive (header policies only) */
  frameAncestors: boolean;
}

const DANGEROUSLY_BROAD: ReadonlySet<string> = new Set([
  'ftp:',
  'http:',
  'https:',
  '*',
  'http://*',
  'http://*.*',
  'https://*',
  'https://*.*',
]);
const UNSAFE_INLINE: ReadonlySet<string> = new Set(["'unsafe-inline'", 'data:']);
const BROAD_OR_UNSAFE_INLINE: ReadonlySet<string> = new Set([...DANGEROUSLY_BROAD, ...UNSAFE_INLINE]);
const PASSIVE_DIRECTIVES = ['img-src', 'media-src'];
const NONCE_OR_HASH_PREFIXES = ["'sha256-", "'sha384-", "'sha512-", "'nonce-"];

const PASSING: readonly ObservatoryResult[] = [
  'csp-implemented-with-no-unsafe',
  'csp-implemented-with-no-unsafe-default-src-none',
  'csp-implemented-with-unsafe-inline-in-style-src-only',
  'csp-implemented-with-insecure-scheme-in-passive-content-only',
];

function hasNonceOrHash(sources: Iterable<string>): boolean {
  for (const source of sources) if (NONCE_OR_HASH_PREFIXES.some((p) => source.startsWith(p))) return true;
  return false;
}

function tryParse(parse: () => CspParse): CspParse | null {
  try {
    return parse();
  } catch {
    return null;
  }
}

/** The package counts its duplicate-directive marker as one more directive of a parsed policy. */
function directiveCount(parsed: CspParse | null): number {
  if (parsed === null) return 0;
  return parsed.directives.size + (parsed.duplicates.size > 0 ? 1 : 0);
}

export function contentSecurityPolicyTest(inputs: ObservatoryInputs): CspFindings {
  const fail = (result: ObservatoryResult): CspFindings => ({ result, pass: false, frameAncestors: false });
  const headerPolicies = headerValues(inputs.auto.headers, 'content-security-policy');
  const metaPolicies = inputs.html?.cspMeta ?? [];

  const combined = tryParse(() => parseCsp([...headerPolicies, ...metaPolicies]));
  if (combined === null) return fail('csp-header-invalid');
  const headerOnly = tryParse(() => parseCsp(headerPolicies));
  const metaOnly = tryParse(() => parseMetaCsp(metaPolicies));

  // a meta whose only directives a meta may not set counts as no policy at all
  if (directiveCount(headerOnly) + directiveCount(metaOnly) === 0) {
    const reportOnly = inputs.auto.headers['content-security-policy-report-only'];
    return fail(reportOnly ? 'csp-not-implemented-but-reporting-enabled' : 'csp-not-implemented');
  }

  const csp = combined.directives;
  // the same Set objects as in the policy: what is deleted below is deleted wherever default-src stands in
  const objectSrc = csp.get('object-src') ?? csp.get('default-src') ?? new Set(['*']);
  const scriptSrc = csp.get('script-src') ?? csp.get('default-src') ?? new Set(['*']);
  const styleSrc = csp.get('style-src') ?? csp.get('default-src') ?? new Set(['*']);

  for (const sources of [scriptSrc, styleSrc]) {
    if (hasNonceOrHash(sources) && sources.has("'unsafe-inline'")) sources.delete("'unsafe-inline'");
  }

  let result: ObservatoryResult | null = null;
  if (hasNonceOrHash(scriptSrc) && scriptSrc.has("'strict-dynamic'")) {
    for (const source of [...scriptSrc]) {
      const broadPrefix = [...DANGEROUSLY_BROAD].some((broad) => source.startsWith(broad));
      if (broadPrefix || source === "'self'" || source === "'unsafe-inline'") scriptSrc.delete(source);
    }
  } else if (scriptSrc.has("'strict-dynamic'")) {
    result = 'csp-header-invalid';
  }

  const activeSources = [...csp.entries()]
    .filter(([name]) => !PASSIVE_DIRECTIVES.includes(name) && name !== 'script-src')
    .flatMap(([, sources]) => [...sources]);
  activeSources.push(...scriptSrc);
  const passiveSources = PASSIVE_DIRECTIVES.flatMap((name) => [...(csp.get(name) ?? csp.get('default-src') ?? [])]);
  const overHttps = inputs.sessionUrl.protocol === 'https:';
  const insecure = (source: string): boolean => source.startsWith('http:') || source.startsWith('ftp:');

  const rules: [boolean, ObservatoryResult][] = [
    [
      [...scriptSrc].some((s) => BROAD_OR_UNSAFE_INLINE.has(s)) || [...objectSrc].some((s) => DANGEROUSLY_BROAD.has(s)),
      'csp-implemented-with-unsafe-inline',
    ],
    [overHttps && activeSources.some(insecure), 'csp-implemented-with-insecure-scheme'],
    [scriptSrc.has("'unsafe-eval'") || styleSrc.has("'unsafe-eval'"), 'csp-implemented-with-unsafe-eval'],
    [overHttps && passiveSources.some(insecure), 'csp-implemented-with-insecure-scheme-in-passive-content-only'],
    [[...styleSrc].some((s) => BROAD_OR_UNSAFE_INLINE.has(s)), 'csp-implemented-with-unsafe-inline-in-style-src-only'],
  ];
  for (const [applies, candidate] of rules) if (applies) result ??= candidate;
  const defaultSrc = csp.get('default-src');
  const defaultNone = defaultSrc?.has("'none'") === true && defaultSrc.size === 1;
  result ??= defaultNone ? 'csp-implemented-with-no-unsafe-default-src-none' : 'csp-implemented-with-no-unsafe';

  const pass = PASSING.includes(result);
  if (pass && combined.duplicates.size > 0) result = 'csp-implemented-but-duplicate-directives';
  return { result, pass, frameAncestors: csp.has('frame-ancestors') };
}
