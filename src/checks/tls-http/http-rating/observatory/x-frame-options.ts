/**
 * x-frame-options (Observatory 1.4.8, src/analyzer/tests/x-frame-options.js): DENY or SAMEORIGIN (trimmed,
 * any case), ALLOW-FROM (obsolete, still a pass), anything else invalid; a CSP frame-ancestors directive
 * supersedes the header (CSP3 §6.4.2, RFC 7034 §2.3.2.2) and gives the bonus.
 */
import type { CspFindings } from './csp.js';
import { firstHeaderValue } from './header-values.js';
import type { ObservatoryInputs } from './inputs.js';
import type { ObservatoryResult, TestOutcome } from './results.js';

const PASSING: readonly ObservatoryResult[] = [
  'x-frame-options-allow-from-origin',
  'x-frame-options-sameorigin-or-deny',
  'x-frame-options-implemented-via-csp',
];

export function xFrameOptionsTest(inputs: ObservatoryInputs, csp: CspFindings): TestOutcome {
  const header = firstHeaderValue(inputs.auto.headers, 'x-frame-options');
  let result: ObservatoryResult;
  if (!header) result = 'x-frame-options-not-implemented';
  else {
    const value = header.slice(0, 1024).trim().toLowerCase();
    if (value === 'deny' || value === 'sameorigin') result = 'x-frame-options-sameorigin-or-deny';
    else if (value.startsWith('allow-from')) result = 'x-frame-options-allow-from-origin';
    else result = 'x-frame-options-header-invalid';
  }
  if (csp.frameAncestors) result = 'x-frame-options-implemented-via-csp';
  return { result, pass: PASSING.includes(result) };
}
