/**
 * bimi: the awaiting part. The record comes from the system resolver through the check context (at
 * `<selector>._bimi.<domain>`, then at the organisational domain's, draft §4.3); DMARC from dmarc-checker's
 * run (so mailhealth-check asks its questions once); the logo through the guarded HTTP fetcher (every
 * address checked, no redirects, at most 32 KiB). An https: URL on the default port is fetched on
 * `ctx.ports.https` (443 except in tests). What it means is bimi.ts's.
 */
import { NetdiagError } from '../../../errors.js';
import { ProbeError } from '../../../probes/errors.js';
import type { CheckContext } from '../../../loaders/context.js';
import { txtLookup } from '../../mail/shared/record-lookup.js';
import { runDmarcCheck } from '../../mail/dmarc-checker/run.js';
import {
  bimiName,
  bimiVerdict,
  isBimiRecord,
  parseBimiRecord,
  SVG_MAX_BYTES,
  type BimiEvidence,
  type BimiResult,
} from './bimi.js';
import { organizationalDomain } from '../../mail/dmarc-checker/dmarc.js';

async function recordsAt(ctx: CheckContext, name: string): Promise<string[]> {
  const answer = await txtLookup(ctx)(name);
  return answer.rcode === 'NXDOMAIN' ? [] : answer.records.filter(isBimiRecord);
}

async function fetchLogo(ctx: CheckContext, location: string): Promise<NonNullable<BimiEvidence['logo']>> {
  const url = new URL(location);
  if (url.port === '' && ctx.ports.https !== 443) url.port = String(ctx.ports.https);
  try {
    const result = await ctx.fetchDocument(url, { maxBytes: SVG_MAX_BYTES });
    return {
      fetched: {
        status: result.final.statusCode,
        contentType: result.final.headers['content-type'] ?? '',
        body: result.body ?? Buffer.alloc(0),
        truncated: result.bodyEnd === 'cap',
        tlsError: result.tlsError,
      },
    };
  } catch (e) {
    // no address, a refused address, a failed connection: the logo is unavailable (a finding)
    if (e instanceof NetdiagError && !(e instanceof ProbeError && e.kind === 'ABORTED')) return { error: e.message };
    throw e;
  }
}

export async function runBimiCheck(ctx: CheckContext, domain: string, selector: string): Promise<BimiResult> {
  const dmarc = runDmarcCheck(ctx, domain);
  // a rejected DMARC question surfaces below; until then it must not count as unhandled
  dmarc.catch(() => undefined);
  let queriedName = bimiName(selector, domain);
  let records = await recordsAt(ctx, queriedName);
  const orgDomain = organizationalDomain(domain);
  if (records.length === 0 && orgDomain !== null && orgDomain !== domain) {
    queriedName = bimiName(selector, orgDomain);
    records = await recordsAt(ctx, queriedName);
  }
  const record = records.length === 1 ? parseBimiRecord(records[0]!) : null;
  const location = record !== null && record.errors.length === 0 ? record.location : '';
  const logo = location !== '' ? await fetchLogo(ctx, location) : null;
  return bimiVerdict({ domain, selector, records, queriedName, logo, dmarc: await dmarc });
}
