/**
 * x-content-type-options (Observatory 1.4.8, src/analyzer/tests/x-content-type-options.js): the graded
 * response's first X-Content-Type-Options must be "nosniff" (trimmed, any case; Fetch §3.5.2 reads it so).
 */
import { firstHeaderValue } from './header-values.js';
import type { ObservatoryInputs } from './inputs.js';
import type { ObservatoryResult, TestOutcome } from './results.js';

export function xContentTypeOptionsTest(inputs: ObservatoryInputs): TestOutcome {
  const header = firstHeaderValue(inputs.auto.headers, 'x-content-type-options');
  let result: ObservatoryResult;
  if (!header) result = 'x-content-type-options-not-implemented';
  else if (header.slice(0, 256).trim().toLowerCase() === 'nosniff') result = 'x-content-type-options-nosniff';
  else result = 'x-content-type-options-header-invalid';
  return { result, pass: result === 'x-content-type-options-nosniff' };
}
