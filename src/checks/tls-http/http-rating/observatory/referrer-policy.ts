/**
 * referrer-policy (Observatory 1.4.8, src/analyzer/tests/referrer-policy.js): the Referrer-Policy header
 * and a `<meta name="referrer">`, the meta last, joined with ", "; the last value that is a policy token
 * counts (W3C Referrer Policy §8.1: the last recognised token wins). Tokens that keep the full URL from other
 * origins are private, those that send it across origins or over downgrades are unsafe; values without a
 * known token are invalid.
 */
import { headerValues } from './header-values.js';
import type { ObservatoryInputs } from './inputs.js';
import type { ObservatoryResult, TestOutcome } from './results.js';

const PRIVATE = ['no-referrer', 'same-origin', 'strict-origin', 'strict-origin-when-cross-origin'];
const UNSAFE = ['origin', 'origin-when-cross-origin', 'unsafe-url', 'no-referrer-when-downgrade'];
const KNOWN = [...PRIVATE, ...UNSAFE];

export function referrerPolicyTest(inputs: ObservatoryInputs): TestOutcome {
  const values = [...headerValues(inputs.auto.headers, 'referrer-policy')];
  if (inputs.html?.referrerMeta) values.push(inputs.html.referrerMeta);
  if (values.length === 0) return { result: 'referrer-policy-not-implemented', pass: true };
  const tokens = values
    .join(', ')
    .split(',')
    .map((token) => token.toLowerCase().trim())
    .filter((token) => KNOWN.includes(token));
  const policy = tokens.at(-1) ?? '';
  let result: ObservatoryResult;
  if (PRIVATE.includes(policy)) result = 'referrer-policy-private';
  else if (UNSAFE.includes(policy)) result = 'referrer-policy-unsafe';
  else result = 'referrer-policy-header-invalid';
  return { result, pass: result === 'referrer-policy-private' };
}
