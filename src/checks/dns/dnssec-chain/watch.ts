/**
 * dnssec-chain (docs/contract/dnssec-chain.md): the status and the broken link (docs/contract/monitors.md
 * "Events"), with each zone's status along the chain. Key tags, digests and signature dates are left out:
 * a routine key rollover changes them without changing whether the chain holds.
 */
import { arr, type JsonObject, keyed, obj, objOrNull, str } from '../../../watch/projection.js';
import { ordered } from '../../../watch/ranking.js';
import { defineWatch } from '../../../watch/watch-spec.js';

/** Best first; a chain that becomes bogus is critical. */
const chainStatus = ordered(['secure', 'insecure', 'indeterminate', 'bogus'], 'bogus');

export const dnssecChainWatch = defineWatch({
  tool: 'dnssec-chain',
  project(data) {
    const broken = objOrNull(data.brokenLink);
    return {
      status: str(data.status),
      brokenLink: broken && { zone: str(broken.zone), code: str(broken.code) },
      zones: keyed(
        arr(data.chain),
        (z) => str(obj(z).zone),
        (z) => str(obj(z).status),
      ),
      rcode: str(obj(data.answer).rcode),
    };
  },
  ranked: [
    { pattern: 'status', ranking: chainStatus },
    { pattern: 'zones[*]', ranking: chainStatus },
  ],
  assess(data) {
    const status = str(data.status);
    const broken = obj(data.brokenLink);
    const name = nameOf(data);
    switch (status) {
      case 'secure':
        return { status: 'ok', grade: null, summary: `The DNSSEC chain of ${name} is secure.` };
      case 'insecure':
        return { status: 'info', grade: null, summary: `${name} is not signed with DNSSEC (insecure).` };
      case 'bogus':
        return {
          status: 'critical',
          grade: null,
          summary: `The DNSSEC chain of ${name} is bogus at ${str(broken.zone) ?? '?'} (${str(broken.code) ?? '?'}).`,
        };
      default:
        return { status: 'warning', grade: null, summary: `The DNSSEC chain of ${name} could not be determined.` };
    }
  },
});

function nameOf(data: JsonObject): string {
  return str(data.domain) ?? '?';
}
