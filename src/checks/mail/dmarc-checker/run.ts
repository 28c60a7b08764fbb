/**
 * dmarc-checker: the awaiting part, the policy's TXT questions through the check context.
 */
import type { CheckContext } from '../../../loaders/context.js';
import { checkDmarc, type DmarcCheckResult } from './dmarc.js';
import { txtLookup } from '../shared/record-lookup.js';

/** The policy at `_dmarc.<domain>`, else at the organisational domain (RFC 7489 §6.6.3). */
export async function runDmarcCheck(ctx: CheckContext, domain: string): Promise<DmarcCheckResult> {
  return checkDmarc(domain, txtLookup(ctx));
}
