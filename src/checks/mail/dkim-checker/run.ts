/**
 * dkim-checker: the awaiting part, the key record's TXT question through the check context.
 */
import type { CheckContext } from '../../../loaders/context.js';
import { dkimRecordName, evaluateDkim, type DkimCheckResult } from './dkim.js';
import { txtLookup } from '../shared/record-lookup.js';

/** The key record at `<selector>._domainkey.<domain>` (RFC 6376 §3.6.2.1). */
export async function runDkimCheck(ctx: CheckContext, domain: string, selector: string): Promise<DkimCheckResult> {
  const answer = await txtLookup(ctx)(dkimRecordName(selector, domain));
  return evaluateDkim(domain, selector, answer);
}
