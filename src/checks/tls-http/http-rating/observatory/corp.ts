/**
 * cross-origin-resource-policy (Observatory 1.4.8, src/analyzer/tests/cross-origin-resource-policy.js): the
 * graded response's first Cross-Origin-Resource-Policy, trimmed and lower-cased: same-site, same-origin
 * (both a bonus: Fetch §3.7 blocks no-cors reads from other sites or origins), cross-origin, or invalid.
 * The package also looks for an http-equiv meta, which its parser never records, so only the header counts.
 */
import { firstHeaderValue } from './header-values.js';
import type { ObservatoryInputs } from './inputs.js';
import type { ObservatoryResult, TestOutcome } from './results.js';

const BY_VALUE: ReadonlyMap<string, ObservatoryResult> = new Map([
  ['same-site', 'corp-implemented-with-same-site'],
  ['same-origin', 'corp-implemented-with-same-origin'],
  ['cross-origin', 'corp-implemented-with-cross-origin'],
]);

export function crossOriginResourcePolicyTest(inputs: ObservatoryInputs): TestOutcome {
  const header = firstHeaderValue(inputs.auto.headers, 'cross-origin-resource-policy');
  const value = header ? header.slice(0, 256).trim().toLowerCase() : '';
  const result: ObservatoryResult =
    value === '' ? 'corp-not-implemented' : (BY_VALUE.get(value) ?? 'corp-header-invalid');
  return { result, pass: result !== 'corp-header-invalid' };
}
