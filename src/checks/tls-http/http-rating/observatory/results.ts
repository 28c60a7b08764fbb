/**
 * The MDN HTTP Observatory's results (npm @mdn/mdn-http-observatory 1.4.8, its algorithm version 4): every
 * result name a test can give, its score modifier and its description, as the package's `Expectation` enum and
 * `SCORE_TABLE` (src/grader/charts.js) spell them (docs/contract/grades.md "http-rating — `url` (http or https;
 * a bare host means `https://host/`)": same result names, same score modifiers). The descriptions are the
 * package's with the HTML markup taken out, so that an API answer is plain text;
 * src/checks/tls-http/http-rating/observatory-corpus.test.ts compares them with the package's own, markup removed the
 * same way.
 */

/** The package's ALGORITHM_VERSION (src/constants.js). */
export const OBSERVATORY_ALGORITHM_VERSION = 4;

export const OBSERVATORY_RESULTS = {
  // content-security-policy
  'csp-implemented-with-no-unsafe-default-src-none': {
    modifier: 10,
    description:
      "Content Security Policy (CSP) implemented with default-src 'none', no 'unsafe' and form-action is set to 'none' or 'self'",
  },
  'csp-implemented-with-no-unsafe': {
    modifier: 5,
    description: "Content Security Policy (CSP) implemented without 'unsafe-inline' or 'unsafe-eval'",
  },
  'csp-implemented-with-unsafe-inline-in-style-src-only': {
    modifier: 0,
    description:
      "Content Security Policy (CSP) implemented with unsafe sources inside style-src. This includes 'unsafe-inline', data: or overly broad sources such as https. 'form-action' is set to 'self', 'none' or 'specific source'",
  },
  'csp-implemented-with-insecure-scheme-in-passive-content-only': {
    modifier: -10,
    description:
      'Content Security Policy (CSP) implemented, but secure site allows images or media to be loaded over HTTP',
  },
  'csp-implemented-with-unsafe-eval': {
    modifier: -10,
    description:
      "Content Security Policy (CSP) implemented, but allows 'unsafe-eval' and allows forms to be submitted to any source.",
  },
  'csp-implemented-with-unsafe-inline': {
    modifier: -20,
    description:
      "Content Security Policy (CSP) implemented unsafely. This includes 'unsafe-inline' or data: inside script-src, overly broad sources such as https: inside object-src or script-src, or not restricting the sources for object-src or script-src.",
  },
  'csp-implemented-with-insecure-scheme': {
    modifier: -20,
    description: 'Content Security Policy (CSP) implemented, but secure site allows resources to be loaded over HTTP',
  },
  'csp-header-invalid': {
    modifier: -25,
    description: 'Content Security Policy (CSP) header cannot be parsed successfully',
  },
  'csp-not-implemented': { modifier: -25, description: 'Content Security Policy (CSP) header not implemented' },
  'csp-not-implemented-but-reporting-enabled': {
    modifier: -25,
    description:
      'Content Security Policy (CSP) reporting implemented only, with Content-Security-Policy-Report-Only header.',
  },
  'csp-implemented-but-duplicate-directives': {
    modifier: 0,
    description: 'Content Security Policy (CSP) implemented, but contains duplicate directives.',
  },

  // cookies
  'cookies-secure-with-httponly-sessions-and-samesite': {
    modifier: 5,
    description:
      'All cookies use the Secure flag, session cookies use the HttpOnly flag, and cross-origin restrictions are in place via the SameSite flag.',
  },
  'cookies-secure-with-httponly-sessions': {
    modifier: 0,
    description: 'All cookies use the Secure flag and all session cookies use the HttpOnly flag.',
  },
  'cookies-not-found': { modifier: 0, description: 'No cookies detected' },
  'cookies-without-secure-flag-but-protected-by-hsts': {
    modifier: -5,
    description: 'Cookies set without using the Secure flag, but transmission over HTTP prevented by HSTS.',
  },
  'cookies-session-without-secure-flag-but-protected-by-hsts': {
    modifier: -10,
    description: 'Session cookie set without the Secure flag, but transmission over HTTP prevented by HSTS.',
  },
  'cookies-without-secure-flag': {
    modifier: -20,
    description: 'Cookies set without using the Secure flag or set over HTTP.',
  },
  'cookies-samesite-flag-invalid': {
    modifier: -20,
    description: 'Cookies use SameSite flag, but set to something other than Strict or Lax',
  },
  'cookies-anticsrf-without-samesite-flag': {
    modifier: -20,
    description: 'Anti-CSRF tokens set without using the SameSite flag.',
  },
  'cookies-session-without-httponly-flag': {
    modifier: -30,
    description: 'Session cookie set without using the HttpOnly flag.',
  },
  'cookies-session-without-secure-flag': {
    modifier: -40,
    description: 'Session cookie set without using the Secure flag or set over HTTP.',
  },

  // cross-origin-resource-sharing
  'cross-origin-resource-sharing-not-implemented': {
    modifier: 0,
    description: 'Content is not visible via cross-origin resource sharing (CORS) files or headers.',
  },
  'cross-origin-resource-sharing-implemented-with-public-access': {
    modifier: 0,
    description:
      'Public content is visible via cross-origin resource sharing (CORS) Access-Control-Allow-Origin header.',
  },
  'cross-origin-resource-sharing-implemented-with-restricted-access': {
    modifier: 0,
    description:
      'Content is visible via cross-origin resource sharing (CORS) files or headers, but is restricted to specific domains.',
  },
  'cross-origin-resource-sharing-implemented-with-universal-access': {
    modifier: -50,
    description:
      'Content is visible via cross-origin resource sharing (CORS) file or headers, and credentials can be sent. Your site could be vulnerable to CSRF attacks.',
  },

  // redirection
  'redirection-all-redirects-preloaded': {
    modifier: 0,
    description: 'All hosts redirected to are in the HTTP Strict Transport Security (HSTS) preload list.',
  },
  'redirection-to-https': {
    modifier: 0,
    description: 'Initial redirection is to HTTPS on same host, final destination is HTTPS',
  },
  'redirection-not-needed-no-http': {
    modifier: 0,
    description: 'Not able to connect via HTTP, so no redirection necessary.',
  },
  'redirection-off-host-from-http': {
    modifier: -5,
    description: 'Initial redirection from HTTP to HTTPS is to a different host, preventing HSTS.',
  },
  'redirection-not-to-https-on-initial-redirection': {
    modifier: -10,
    description: 'Redirects to HTTPS eventually, but initial redirection is to another HTTP URL.',
  },
  'redirection-not-to-https': { modifier: -20, description: 'Redirects, but final destination is not an HTTPS URL.' },
  'redirection-missing': { modifier: -20, description: 'Does not redirect to an HTTPS site.' },
  'redirection-invalid-cert': {
    modifier: -20,
    description: 'Invalid certificate chain encountered during redirection.',
  },

  // referrer-policy
  'referrer-policy-private': {
    modifier: 5,
    description:
      'Referrer-Policy header set to no-referrer, same-origin, strict-origin or strict-origin-when-cross-origin.',
  },
  'referrer-policy-not-implemented': { modifier: 0, description: 'Referrer-Policy header not implemented.' },
  'referrer-policy-unsafe': {
    modifier: -5,
    description:
      'Referrer-Policy header set unsafely to origin, origin-when-cross-origin, unsafe-url or no-referrer-when-downgrade.',
  },
  'referrer-policy-header-invalid': { modifier: -5, description: 'Referrer-Policy header cannot be recognized.' },

  // strict-transport-security
  'hsts-preloaded': {
    modifier: 5,
    description: 'Preloaded via the HTTP Strict Transport Security (HSTS) preloading process.',
  },
  'hsts-implemented-max-age-at-least-six-months': {
    modifier: 0,
    description: 'Strict-Transport-Security header set to a minimum of six months (15768000).',
  },
  'hsts-implemented-max-age-less-than-six-months': {
    modifier: -10,
    description: 'Strict-Transport-Security header set to less than six months (15768000).',
  },
  'hsts-not-implemented': { modifier: -20, description: 'Strict-Transport-Security header not implemented.' },
  'hsts-header-invalid': { modifier: -20, description: 'Strict-Transport-Security header cannot be recognized' },
  'hsts-not-implemented-no-https': {
    modifier: -20,
    description: 'Strict-Transport-Security header cannot be set for sites not available over HTTPS.',
  },
  'hsts-invalid-cert': {
    modifier: -20,
    description: 'Strict-Transport-Security header cannot be set, as site contains an invalid certificate chain.',
  },

  // subresource-integrity
  'sri-implemented-and-all-scripts-loaded-securely': {
    modifier: 5,
    description: 'Subresource Integrity (SRI) is implemented and all scripts are loaded from a similar origin.',
  },
  'sri-implemented-and-external-scripts-loaded-securely': {
    modifier: 5,
    description: 'Subresource Integrity (SRI) is implemented and all scripts are loaded securely.',
  },
  'sri-not-implemented-response-not-html': {
    modifier: 0,
    description: 'Subresource Integrity (SRI) is only needed for HTML resources.',
  },
  'sri-not-implemented-but-no-scripts-loaded': {
    modifier: 0,
    description: 'Subresource Integrity (SRI) is not needed since site contains no script tags.',
  },
  'sri-not-implemented-but-all-scripts-loaded-from-secure-origin': {
    modifier: 0,
    description: 'Subresource Integrity (SRI) not implemented, but all scripts are loaded from a similar origin.',
  },
  'sri-not-implemented-but-external-scripts-loaded-securely': {
    modifier: -5,
    description: 'Subresource Integrity (SRI) not implemented, but all external scripts are loaded over HTTPS.',
  },
  'sri-implemented-but-external-scripts-not-loaded-securely': {
    modifier: -20,
    description:
      'Subresource Integrity (SRI) implemented, but external scripts are loaded over HTTP or use protocol-relative URLs via src="//...".',
  },
  'sri-not-implemented-and-external-scripts-not-loaded-securely': {
    modifier: -50,
    description:
      'Subresource Integrity (SRI) not implemented, and external scripts are loaded over HTTP or use protocol-relative URLs via src="//...".',
  },

  // x-content-type-options
  'x-content-type-options-nosniff': { modifier: 0, description: 'X-Content-Type-Options header set to nosniff.' },
  'x-content-type-options-not-implemented': {
    modifier: -5,
    description: 'X-Content-Type-Options header not implemented.',
  },
  'x-content-type-options-header-invalid': {
    modifier: -5,
    description: 'X-Content-Type-Options header cannot be recognized.',
  },

  // x-frame-options
  'x-frame-options-implemented-via-csp': {
    modifier: 5,
    description: 'X-Frame-Options (XFO) implemented via the CSP frame-ancestors directive.',
  },
  'x-frame-options-sameorigin-or-deny': {
    modifier: 0,
    description: 'X-Frame-Options (XFO) header set to SAMEORIGIN or DENY.',
  },
  'x-frame-options-allow-from-origin': {
    modifier: 0,
    description: 'X-Frame-Options (XFO) header uses ALLOW-FROM uri directive.',
  },
  'x-frame-options-not-implemented': { modifier: -20, description: 'X-Frame-Options (XFO) header not implemented.' },
  'x-frame-options-header-invalid': {
    modifier: -20,
    description: 'X-Frame-Options (XFO) header cannot be recognized.',
  },

  // cross-origin-resource-policy
  'corp-header-invalid': {
    modifier: -5,
    description: 'Cross-Origin-Resource-Policy (CORP) header cannot be recognized.',
  },
  'corp-implemented-with-cross-origin': {
    modifier: 0,
    description:
      'Cross Origin Resource Policy (CORP) implemented, but allows cross-origin resource sharing by default.',
  },
  'corp-implemented-with-same-origin': {
    modifier: 10,
    description: 'Cross Origin Resource Policy (CORP) implemented, prevents leaks into cross-origin contexts.',
  },
  'corp-implemented-with-same-site': {
    modifier: 10,
    description: 'Cross Origin Resource Policy (CORP) implemented, prevents leaks into cross-site contexts.',
  },
  'corp-not-implemented': {
    modifier: 0,
    description: 'Cross Origin Resource Policy (CORP) is not implemented (defaults to cross-origin).',
  },

  // any test reading the document
  'html-not-parseable': { modifier: -20, description: 'Claims to be html, but cannot be parsed.' },
} as const satisfies Record<string, { modifier: number; description: string }>;

export type ObservatoryResult = keyof typeof OBSERVATORY_RESULTS;

/** The ten tests of algorithm version 4, in the order grades.md lists them. */
export const OBSERVATORY_TESTS = [
  'content-security-policy',
  'cookies',
  'cross-origin-resource-sharing',
  'cross-origin-resource-policy',
  'redirection',
  'referrer-policy',
  'strict-transport-security',
  'subresource-integrity',
  'x-content-type-options',
  'x-frame-options',
] as const;

export type ObservatoryTestName = (typeof OBSERVATORY_TESTS)[number];

/** One test's outcome before scoring: the package's `result` and `pass`. */
export interface TestOutcome {
  result: ObservatoryResult;
  pass: boolean;
}

/**
 * The worse of two results along `order` (best first), as the package's `onlyIfWorse`: a result not in
 * the order counts as better than every listed one.
 */
export function worseOf<R extends ObservatoryResult>(candidate: R, current: R | null, order: readonly R[]): R {
  if (current === null) return candidate;
  return order.indexOf(candidate) > order.indexOf(current) ? candidate : current;
}
