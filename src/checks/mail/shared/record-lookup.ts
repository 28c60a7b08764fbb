/**
 * The records a mail check reads, through the check context: every question goes to the system resolver
 * (asked once per request, served from the TTL cache when fresh, decisions §9), so mailhealth-check reuses
 * the answers of spf-checker, dkim-checker, dmarc-checker, tls-rpt and bimi.
 */
import { recordsOfType, type RecordType } from '../../../probes/dns/client.js';
import type { CheckContext } from '../../../loaders/context.js';
import { recordText } from '../../dns/shared/records.js';
import type { TxtAnswer, TxtLookup } from './txt.js';

/**
 * The records of `type` at `name` (through a CNAME chain) in their text form: TXT strings joined
 * (RFC 7208 §3.3), addresses, "10 mx.example.com". NXDOMAIN and NODATA are answers; a failed
 * question throws its ProbeError.
 */
export function recordLookup(ctx: CheckContext, type: RecordType): (name: string) => Promise<TxtAnswer> {
  return async (name) => {
    const response = await ctx.resolve(name, type);
    return { rcode: response.rcode, records: recordsOfType(response, name, type).map(recordText) };
  };
}

export function txtLookup(ctx: CheckContext): TxtLookup {
  return recordLookup(ctx, 'TXT');
}
