/**
 * tls-rpt: the awaiting part, the policy's TXT question through the check context.
 */
import type { CheckContext } from '../../../loaders/context.js';
import { checkTlsRpt, type TlsRptCheckResult } from './tls-rpt.js';
import { txtLookup } from '../../mail/shared/record-lookup.js';

export async function runTlsRptCheck(ctx: CheckContext, domain: string): Promise<TlsRptCheckResult> {
  return checkTlsRpt(domain, txtLookup(ctx));
}
