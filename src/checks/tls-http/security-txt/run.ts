/**
 * security-txt: the awaiting part. The file is asked at https://<domain>/.well-known/security.txt (RFC 9116
 * §3; the port `ctx.ports.https`, 443 except in tests) through the guarded document fetcher (every address
 * checked, the body read whatever its type, at most SECURITY_TXT_MAX_BYTES); only when https gives no file
 * is it asked over http, to tell "served over http only" from "missing". RFC 9116 §3 lets a retrieval be
 * redirected: redirects are followed here, hop by hop through the same fetcher (so each target is checked
 * by the target guard), at most `http.maxRedirects` of them, never to a URL already asked. What the answers
 * mean is ./rules.ts's.
 */
import { NetdiagError } from '../../../errors.js';
import type { CheckContext } from '../../../loaders/context.js';
import { ProbeError } from '../../../probes/errors.js';
import { decideRedirect, requestKey } from '../../../probes/http/redirects.js';
import {
  evaluateSecurityTxt,
  SECURITY_TXT_MAX_BYTES,
  SECURITY_TXT_PATH,
  type SecurityTxtFetch,
  type SecurityTxtResult,
} from './rules.js';

function wellKnownUrl(scheme: 'https' | 'http', domain: string, port: number): URL {
  const standard = scheme === 'https' ? 443 : 80;
  return new URL(`${scheme}://${domain}${port === standard ? '' : `:${port}`}${SECURITY_TXT_PATH}`);
}

/** The file at `url`, redirects followed; a failure to get any answer is the fetch's `error`. */
async function fetchFile(ctx: CheckContext, url: URL): Promise<SecurityTxtFetch> {
  const asked = new Set<string>();
  let next = url;
  try {
    for (;;) {
      asked.add(requestKey(next));
      const result = await ctx.fetchDocument(next, { maxBytes: SECURITY_TXT_MAX_BYTES });
      const { final } = result;
      const decision = decideRedirect(next, final.statusCode, final.headers.location ?? null);
      if (
        decision.kind === 'follow' &&
        asked.size <= ctx.config.http.maxRedirects &&
        !asked.has(requestKey(decision.url))
      ) {
        next = decision.url;
        continue;
      }
      return {
        url: url.href,
        finalUrl: next.href,
        status: final.statusCode,
        contentType: final.headers['content-type'] ?? null,
        body: final.statusCode === 200 ? (result.body ?? Buffer.alloc(0)).toString('utf8') : null,
        truncated: result.bodyEnd === 'cap',
        error: null,
      };
    }
  } catch (e) {
    // no address, a refused address, a failed connection or handshake: no answer (a finding); the request
    // ending, or a bug, is not
    if (e instanceof NetdiagError && !(e instanceof ProbeError && e.kind === 'ABORTED'))
      return {
        url: url.href,
        finalUrl: null,
        status: null,
        contentType: null,
        body: null,
        truncated: false,
        error: e.message,
      };
    throw e;
  }
}

export async function runSecurityTxt(ctx: CheckContext, domain: string): Promise<SecurityTxtResult> {
  const https = await fetchFile(ctx, wellKnownUrl('https', domain, ctx.ports.https));
  const httpsServes = https.status === 200 && https.body !== null;
  const http = httpsServes ? null : await fetchFile(ctx, wellKnownUrl('http', domain, ctx.ports.http));
  return evaluateSecurityTxt({ domain, https, http }, ctx.now());
}
