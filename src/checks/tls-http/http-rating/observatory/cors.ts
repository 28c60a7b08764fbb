/**
 * cross-origin-resource-sharing (Observatory 1.4.8, src/analyzer/tests/cors.js), over the preflight
 * http-rating sends (OPTIONS with Origin and Access-Control-Request-Method, as the package's retriever
 * does): no Access-Control-Allow-Origin is "not implemented"; "*" is public access; the request's Origin
 * echoed exactly with Access-Control-Allow-Credentials: true is universal access (any site may read
 * credentialed answers: Fetch §3.2.5), a fail; any other value is restricted access.
 */
import { firstHeaderValue } from './header-values.js';
import type { ObservatoryInputs } from './inputs.js';
import type { ObservatoryResult, TestOutcome } from './results.js';

export function crossOriginResourceSharingTest(inputs: ObservatoryInputs): TestOutcome {
  const cors = inputs.cors;
  const allowOrigin = cors === null ? null : firstHeaderValue(cors.headers, 'access-control-allow-origin');
  let result: ObservatoryResult = 'cross-origin-resource-sharing-not-implemented';
  if (cors !== null && allowOrigin) {
    const credentials = firstHeaderValue(cors.headers, 'access-control-allow-credentials');
    if (allowOrigin.slice(0, 256).trim().toLowerCase() === '*') {
      result = 'cross-origin-resource-sharing-implemented-with-public-access';
    } else if (cors.origin === allowOrigin && credentials?.toLowerCase().trim() === 'true') {
      result = 'cross-origin-resource-sharing-implemented-with-universal-access';
    } else {
      result = 'cross-origin-resource-sharing-implemented-with-restricted-access';
    }
  }
  return { result, pass: result !== 'cross-origin-resource-sharing-implemented-with-universal-access' };
}
