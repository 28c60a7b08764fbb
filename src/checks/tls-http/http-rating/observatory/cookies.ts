/**
 * cookies (Observatory 1.4.8, src/analyzer/tests/cookies.js): every cookie the graded session's responses
 * set (cookie-jar.ts), each judged and the worst finding kept. A cookie whose name contains "login" or
 * "sess" is a session cookie, one containing "csrf" an anti-CSRF token (case-insensitive); Heroku's
 * session-affinity cookie is left out, as the package leaves it out. Findings, best to worst: missing
 * Secure under HSTS, missing Secure, a session cookie without Secure under HSTS, SameSite invalid (a raw
 * value other than Strict/Lax/None on the final response, or SameSite=None without Secure, which browsers
 * refuse: RFC 6265bis §5.7), an anti-CSRF token without SameSite, a session cookie without HttpOnly, a
 * session cookie without Secure. "Under HSTS" means strict-transport-security passes.
 */
import { CookieJar } from './cookie-jar.js';
import { headerValues } from './header-values.js';
import type { ObservatoryInputs } from './inputs.js';
import { type ObservatoryResult, type TestOutcome, worseOf } from './results.js';

const BEST_TO_WORST: readonly ObservatoryResult[] = [
  'cookies-without-secure-flag-but-protected-by-hsts',
  'cookies-without-secure-flag',
  'cookies-session-without-secure-flag-but-protected-by-hsts',
  'cookies-samesite-flag-invalid',
  'cookies-anticsrf-without-samesite-flag',
  'cookies-session-without-httponly-flag',
  'cookies-session-without-secure-flag',
];

const IGNORED_COOKIES = ['heroku-session-affinity'];

/** The package's raw check: each ";"-separated part read as key=value (only up to a second "="). */
function hasInvalidSameSite(line: string): boolean {
  for (const part of line.trim().split(';')) {
    const [key, value] = part.trim().split('=');
    if (key!.trim().toLowerCase() !== 'samesite') continue;
    if (!value) return true;
    if (!['lax', 'strict', 'none'].includes(value.trim().toLowerCase())) return true;
  }
  return false;
}

export function cookiesTest(inputs: ObservatoryInputs, hstsPasses: boolean): TestOutcome {
  let result: ObservatoryResult | null = null;
  const worsen = (finding: ObservatoryResult): void => {
    result = worseOf(finding, result, BEST_TO_WORST);
  };
  for (const line of headerValues(inputs.auto.headers, 'set-cookie')) {
    if (hasInvalidSameSite(line)) worsen('cookies-samesite-flag-invalid');
  }

  const jar = new CookieJar();
  for (const response of inputs.cookies) for (const line of response.setCookie) jar.set(line, response.url);
  const cookies = jar.all().filter((cookie) => cookie.name && !IGNORED_COOKIES.includes(cookie.name));
  if (cookies.length === 0) return { result: 'cookies-not-found', pass: true };

  let missingSameSite = false;
  for (const cookie of cookies) {
    const name = cookie.name.toLowerCase();
    const session = name.includes('login') || name.includes('sess');
    const antiCsrf = name.includes('csrf');
    if (!cookie.secure && cookie.sameSite === 'none') worsen('cookies-samesite-flag-invalid');
    if (!cookie.secure)
      worsen(hstsPasses ? 'cookies-without-secure-flag-but-protected-by-hsts' : 'cookies-without-secure-flag');
    if (antiCsrf && cookie.sameSite === null) worsen('cookies-anticsrf-without-samesite-flag');
    if (session && !cookie.secure) {
      worsen(
        hstsPasses
          ? 'cookies-session-without-secure-flag-but-protected-by-hsts'
          : 'cookies-session-without-secure-flag',
      );
    }
    if (session && !cookie.httpOnly) worsen('cookies-session-without-httponly-flag');
    if (cookie.sameSite === null) missingSameSite = true;
  }
  const final: ObservatoryResult =
    result ??
    (missingSameSite ? 'cookies-secure-with-httponly-sessions' : 'cookies-secure-with-httponly-sessions-and-samesite');
  const pass =
    final === 'cookies-secure-with-httponly-sessions' || final === 'cookies-secure-with-httponly-sessions-and-samesite';
  return { result: final, pass };
}
