/**
 * strict-transport-security (Observatory 1.4.8, src/analyzer/tests/strict-transport-security.js): the first
 * Strict-Transport-Security value of the https session's final response. A value with a comma (the header
 * sent twice, joined) or without max-age is invalid; max-age under 15552000 s is "less than six months" (the
 * package's white lie: six months is 15768000, many sites send 180 days). A session that met a certificate
 * problem cannot set HSTS (RFC 6797 §8.1: a UA ignores the header over a connection with errors). A host on
 * the preload list (hsts-preload.ts) is preloaded whatever the header says.
 */
import { headerValues } from './header-values.js';
import type { ObservatoryInputs } from './inputs.js';
import type { ObservatoryResult, TestOutcome } from './results.js';

const SIX_MONTHS_SECONDS = 15_552_000;

function headerResult(value: string): ObservatoryResult {
  const header = value.slice(0, 1024);
  if (header.includes(',')) return 'hsts-header-invalid';
  let maxAge: number | null = null;
  for (const parameter of header.split(';').map((p) => p.trim().toLowerCase())) {
    // parseInt as the package reads it: leading digits count, "max-age=abc" is NaN (and NaN is not < six months)
    if (parameter.startsWith('max-age=')) maxAge = Number.parseInt(parameter.slice(8, 128), 10);
  }
  if (maxAge === null) return 'hsts-header-invalid';
  return maxAge < SIX_MONTHS_SECONDS
    ? 'hsts-implemented-max-age-less-than-six-months'
    : 'hsts-implemented-max-age-at-least-six-months';
}

export function strictTransportSecurityTest(inputs: ObservatoryInputs): TestOutcome {
  const response = inputs.https;
  let result: ObservatoryResult = 'hsts-not-implemented';
  if (response === null) result = 'hsts-not-implemented-no-https';
  else if (!response.verified) result = 'hsts-invalid-cert';
  else {
    const values = headerValues(response.headers, 'strict-transport-security');
    if (values.length > 0) result = headerResult(values[0]!);
  }
  if (response !== null && inputs.preloaded(inputs.hostname) !== null) result = 'hsts-preloaded';
  const pass = result === 'hsts-implemented-max-age-at-least-six-months' || result === 'hsts-preloaded';
  return { result, pass };
}
