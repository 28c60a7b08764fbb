/**
 * A question that failed is an observation (the chain reads `indeterminate`, SERVER_FAILURE), not a
 * thrown error, except when the request itself ended or the caller's input was bad.
 */
import { NetdiagError } from '../../../errors.js';
import type { DnsResponse } from '../../../probes/dns/client.js';
import { ProbeError } from '../../../probes/errors.js';
import type { Asked } from './observations.js';

export async function askedOrFailure(question: Promise<DnsResponse>): Promise<Asked> {
  try {
    return { response: await question };
  } catch (e) {
    if (e instanceof ProbeError && e.kind !== 'ABORTED') return { failure: e.message };
    if (e instanceof NetdiagError && e.code === 'FAN_OUT_LIMIT') return { failure: e.message };
    throw e;
  }
}
