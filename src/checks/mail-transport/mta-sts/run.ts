/**
 * mta-sts: the awaiting part. The TXT record and the MX hosts come from the system resolver through
 * the check context (shared with mx-lookup and mailhealth-check); the policy is fetched through the
 * guarded HTTP fetcher (every address checked, redirects not followed, at most 64 KiB) at
 * https://mta-sts.<domain>/.well-known/mta-sts.txt — on the port `ctx.ports.https`, 443 except in
 * tests. What it all means is mta-sts.ts's.
 */
import { NetdiagError } from '../../../errors.js';
import { ProbeError } from '../../../probes/errors.js';
import type { FetchResult } from '../../../probes/http/fetcher.js';
import type { CheckContext } from '../../../loaders/context.js';
import { mediaTypeOf } from '../../../probes/http/content-type.js';
import { txtLookup } from '../../mail/shared/record-lookup.js';
import {
  isMtaStsRecord,
  mtaStsName,
  mtaStsVerdict,
  policyHost,
  POLICY_MAX_BYTES,
  type MtaStsEvidence,
  type MtaStsResult,
} from './mta-sts.js';
import { canonicalName } from '../../../net/dns-name.js';
import { askMx } from '../../dns/mx-lookup/run.js';

/** The domain's MX hosts followed, by name and priority (a null MX, RFC 7505, is none), and how many more there are. */
async function exchanges(ctx: CheckContext, domain: string): Promise<{ names: string[]; omitted: number }> {
  const mx = await askMx(ctx, domain);
  return { names: mx.exchanges.map((m) => canonicalName(m.exchange)), omitted: mx.omittedExchanges };
}

/** Why a response is not a usable policy (RFC 8461 §3.3), or null. */
function responseProblem(result: FetchResult, host: string): string | null {
  const { statusCode } = result.final;
  if (statusCode >= 300 && statusCode < 400)
    return `${host} answered ${statusCode} (a redirect): policy fetches do not follow redirects (RFC 8461 §3.3)`;
  if (statusCode !== 200) return `${host} answered ${statusCode} for the policy`;
  if (result.tlsError !== null)
    return `the certificate of ${host} is not valid for it (${result.tlsError}): senders will not use the policy (RFC 8461 §3.3)`;
  const type = mediaTypeOf(result.final.headers['content-type']);
  if (type !== 'text/plain')
    return `the policy is served as ${type ?? 'no media type'}, not text/plain (RFC 8461 §3.2)`;
  if (result.bodyEnd === 'cap') return `the policy is larger than ${POLICY_MAX_BYTES / 1024} KiB`;
  return null;
}

async function fetchPolicy(ctx: CheckContext, domain: string): Promise<NonNullable<MtaStsEvidence['policyFetch']>> {
  const host = policyHost(domain);
  const port = ctx.ports.https;
  const url = new URL(`https://${host}${port === 443 ? '' : `:${port}`}/.well-known/mta-sts.txt`);
  let result: FetchResult;
  try {
    result = await ctx.fetchDocument(url, { maxBytes: POLICY_MAX_BYTES });
  } catch (e) {
    // no address, a refused address, a failed connection or handshake: the policy is unavailable (a
    // finding); the request ending, or a bug, is not
    if (e instanceof NetdiagError && !(e instanceof ProbeError && e.kind === 'ABORTED'))
      return { status: null, text: null, error: e.message };
    throw e;
  }
  const problem = responseProblem(result, host);
  return {
    status: result.final.statusCode,
    text: problem === null ? (result.body ?? Buffer.alloc(0)).toString('utf8') : null,
    error: problem,
  };
}

export async function runMtaStsCheck(ctx: CheckContext, domain: string): Promise<MtaStsResult> {
  const [txt, mx] = await Promise.all([txtLookup(ctx)(mtaStsName(domain)), exchanges(ctx, domain)]);
  const records = txt.rcode === 'NXDOMAIN' ? [] : txt.records;
  // the policy is fetched only for exactly one record: with none or several, senders use no policy
  const fetched = records.filter(isMtaStsRecord).length === 1 ? await fetchPolicy(ctx, domain) : null;
  return mtaStsVerdict({
    domain,
    records,
    policyFetch: fetched,
    exchanges: mx.names,
    omittedExchanges: mx.omitted,
  });
}
