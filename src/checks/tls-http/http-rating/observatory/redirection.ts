/**
 * redirection (Observatory 1.4.8, src/analyzer/tests/redirection.js), over the http://host/ session, every
 * response of it in order (`route`): no http answer needs no redirection; a certificate problem anywhere
 * in the chain is a fail; every host of the route preloaded (hsts-preload.ts) passes; a route of one
 * response did not redirect; otherwise the final URL must be https, the first redirect must go to https
 * (an http→http first step leaves the user exposed), and to the same host, where HSTS can be set
 * (RFC 6797 §7.2: an HSTS host redirects http to its own https URL).
 */
import type { ObservatoryInputs } from './inputs.js';
import type { ObservatoryResult, TestOutcome } from './results.js';

const PASSING: readonly ObservatoryResult[] = [
  'redirection-not-needed-no-http',
  'redirection-all-redirects-preloaded',
  'redirection-to-https',
];

function routeResult(inputs: ObservatoryInputs): ObservatoryResult {
  if (inputs.http === null) return 'redirection-not-needed-no-http';
  if (!inputs.http.verified) return 'redirection-invalid-cert';
  const route = inputs.httpRedirects.map((entry) => entry.url);
  if (route.every((url) => inputs.preloaded(url.hostname) !== null)) return 'redirection-all-redirects-preloaded';
  if (route.length === 1) return 'redirection-missing';
  if (route.at(-1)!.protocol !== 'https:') return 'redirection-not-to-https';
  if (route[1]!.protocol === 'http:') return 'redirection-not-to-https-on-initial-redirection';
  if (route[0]!.protocol === 'http:' && route[1]!.protocol === 'https:' && route[0]!.hostname !== route[1]!.hostname) {
    return 'redirection-off-host-from-http';
  }
  return 'redirection-to-https';
}

export function redirectionTest(inputs: ObservatoryInputs): TestOutcome {
  const result = routeResult(inputs);
  return { result, pass: PASSING.includes(result) };
}
