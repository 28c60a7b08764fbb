/**
 * What the composite checks add to a DNSSEC finding when a name is bogus: the link of its chain of
 * trust that breaks (dnssec-chain's `brokenLink`), asked through the same check context, so that its
 * questions are shared with the rest of the request.
 */
import { NetdiagError } from '../../../errors.js';
import type { CheckContext } from '../../../loaders/context.js';
import { ProbeError } from '../../../probes/errors.js';
import { runDnssecChain, type ChainRecordType } from './run.js';
import type { BrokenLink } from './result.js';

/** The broken link of a bogus chain; null when the chain is not bogus or could not be walked (the finding stands without it). */
export async function bogusBrokenLink(
  ctx: CheckContext,
  name: string,
  type: ChainRecordType,
): Promise<BrokenLink | null> {
  try {
    const chain = await runDnssecChain(ctx, name, type);
    return chain.status === 'bogus' ? chain.brokenLink : null;
  } catch (e) {
    if (e instanceof ProbeError && e.kind === 'ABORTED') throw e;
    if (e instanceof NetdiagError) return null;
    throw e;
  }
}

/** "the chain of trust breaks at <zone>: <CODE> (<message>)" */
export function describeBrokenLink(link: BrokenLink): string {
  return `the chain of trust breaks at ${link.zone === '.' ? 'the root' : link.zone}: ${link.code} (${link.message})`;
}
