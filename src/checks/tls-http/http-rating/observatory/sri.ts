/**
 * subresource-integrity (Observatory 1.4.8, src/analyzer/tests/subresource-integrity.js): the scripts of the
 * graded document (html.ts). A script is on a "similar origin" when its src is relative, or an absolute URL
 * whose registrable domain (tldts, ICANN suffixes) is the rated host's; a protocol-relative src counts as
 * foreign. A foreign script should carry an integrity attribute (W3C SRI §3.3) and be fetched over https.
 * Findings, best to worst: SRI with same-origin scripts, SRI with foreign scripts over https, SRI but a
 * foreign script over http, no SRI but foreign scripts over https, no SRI and foreign scripts over http;
 * a response that is not text/html or application/xhtml+xml has nothing to check.
 */
import { parse } from 'tldts';
import { isObservatoryHtml, type ObservatoryInputs } from './inputs.js';
import { type ObservatoryResult, type TestOutcome, worseOf } from './results.js';

const BEST_TO_WORST: readonly ObservatoryResult[] = [
  'sri-implemented-and-all-scripts-loaded-securely',
  'sri-implemented-and-external-scripts-loaded-securely',
  'sri-implemented-but-external-scripts-not-loaded-securely',
  'sri-not-implemented-but-external-scripts-loaded-securely',
  'sri-not-implemented-and-external-scripts-not-loaded-securely',
  'sri-not-implemented-response-not-html',
];

const PASSING: readonly ObservatoryResult[] = [
  'sri-implemented-and-all-scripts-loaded-securely',
  'sri-implemented-and-external-scripts-loaded-securely',
  'sri-not-implemented-response-not-html',
  'sri-not-implemented-but-all-scripts-loaded-from-secure-origin',
  'sri-not-implemented-but-no-scripts-loaded',
];

const PROTOCOL_RELATIVE = /^(\/\/)[^/]/;
const ABSOLUTE_HTTP = /^https?:\/\//;

/** An absolute src that did not parse stays as written (html.ts): it is then no secure scheme. */
function protocolOf(src: string): string | null {
  try {
    return new URL(src).protocol;
  } catch {
    return null;
  }
}

function documentResult(inputs: ObservatoryInputs): ObservatoryResult {
  if (!isObservatoryHtml(inputs.auto.headers)) return 'sri-not-implemented-response-not-html';
  const scripts = inputs.html?.scripts ?? [];
  if (scripts.length === 0) return 'sri-not-implemented-but-no-scripts-loaded';
  const siteDomain = parse(inputs.hostname).domain;
  const sessionOverHttps = inputs.sessionUrl.protocol === 'https:';
  let result: ObservatoryResult | null = null;
  let foreignScripts = false;
  for (const script of scripts) {
    if (!script.src) continue;
    const protocolRelative = PROTOCOL_RELATIVE.test(script.src);
    const absolute = !protocolRelative && ABSOLUTE_HTTP.test(script.src);
    const relative = !protocolRelative && !absolute;
    const sameSite = !absolute || parse(script.src).domain === siteDomain;
    const similarOrigin = relative || (sameSite && !protocolRelative);
    if (!similarOrigin) foreignScripts = true;
    const scheme = absolute ? protocolOf(script.src) : null;
    const secureScheme = scheme === 'https:' || (relative && sessionOverHttps);
    const integrity = Boolean(script.integrity);
    if (!similarOrigin) {
      if (integrity && !secureScheme) {
        result = worseOf('sri-implemented-but-external-scripts-not-loaded-securely', result, BEST_TO_WORST);
      } else if (!integrity && secureScheme) {
        result = worseOf('sri-not-implemented-but-external-scripts-loaded-securely', result, BEST_TO_WORST);
      } else if (!integrity) {
        result = worseOf('sri-not-implemented-and-external-scripts-not-loaded-securely', result, BEST_TO_WORST);
      }
    } else if (integrity && secureScheme && result === null) {
      // the bonus is granted for SRI on same-origin scripts too
      result = 'sri-implemented-and-all-scripts-loaded-securely';
    }
  }
  return (
    result ??
    (foreignScripts
      ? 'sri-implemented-and-external-scripts-loaded-securely'
      : 'sri-not-implemented-but-all-scripts-loaded-from-secure-origin')
  );
}

export function subresourceIntegrityTest(inputs: ObservatoryInputs): TestOutcome {
  const result = documentResult(inputs);
  return { result, pass: PASSING.includes(result) };
}
