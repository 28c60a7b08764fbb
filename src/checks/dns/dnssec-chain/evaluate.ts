/**
 * The chain of trust from the anchor zone down to the zone holding the name, then the answer, all
 * verified here (docs/contract/dnssec-chain.md). Pure: it reads the observations collection made and the
 * clock it was given. A zone's status is its own link's verdict while every zone above it is secure,
 * else theirs (RFC 4035 §5: trust only flows down); the first link from the root that is not secure
 * decides the chain.
 */
import { evaluateAnswer } from './answer.js';
import { evaluateLink, type LinkVerdict } from './link.js';
import { normalName, sameName } from './names.js';
import type { ChainObservations } from './observations.js';
import type { BrokenLink, ChainLink, ChainStatus, DnssecChainResult } from './result.js';
import { KeyImports } from './rrsig.js';
import { newVerificationCost } from './verification-cost.js';
import { zoneCuts } from './zone-cuts.js';

export type ChainEvaluation = Omit<DnssecChainResult, 'source' | 'questions'>;

export function evaluateChain(obs: ChainObservations): ChainEvaluation {
  const ctx = { nowSeconds: obs.nowSeconds, keys: new KeyImports(), cost: newVerificationCost() };
  const cuts = zoneCuts(obs.names);
  const verdicts: LinkVerdict[] = [];
  for (const [i, cut] of cuts.entries()) {
    verdicts.push(
      evaluateLink(
        {
          zone: cut.name,
          parent: verdicts[i - 1] ?? null,
          anchors: i === 0 ? obs.anchors : null,
          ds: cut.ds,
          dnskey: cut.dnskey,
        },
        ctx,
      ),
    );
  }
  // a DS RRset lives in the parent zone (RFC 4035 §2.4): the zone holding it is the one above the cut
  const last = verdicts.length - 1;
  const holdingIndex =
    obs.qtype === 'DS' && last > 0 && sameName(verdicts[last]!.link.zone, obs.qname) ? last - 1 : last;
  const holding = verdicts[holdingIndex]!;
  const answer = evaluateAnswer(normalName(obs.qname), obs.qtype, obs.answer, holding, ctx);

  let status: ChainStatus = answer.answer.status;
  let brokenLink: BrokenLink | null = answer.decisive ? { zone: holding.link.zone, ...answer.decisive } : null;
  const deciding = verdicts.slice(0, holdingIndex + 1).find((v) => v.link.status !== 'secure');
  if (deciding) {
    status = deciding.link.status;
    brokenLink = deciding.decisive && status !== 'insecure' ? { zone: deciding.link.zone, ...deciding.decisive } : null;
  }
  if (status === 'indeterminate' && brokenLink === null && answer.decisive)
    brokenLink = { zone: holding.link.zone, ...answer.decisive };
  if (status === 'secure' || status === 'insecure') brokenLink = null;
  // an answer that could not be had leaves even an insecure chain undetermined
  if (answer.answer.status === 'indeterminate' && status === 'insecure') {
    status = 'indeterminate';
    brokenLink = answer.decisive ? { zone: holding.link.zone, ...answer.decisive } : null;
  }
  const chain: ChainLink[] = verdicts.map((v) => ({ ...v.link, errors: [...v.errors], warnings: [...v.warnings] }));
  return {
    domain: normalName(obs.qname),
    type: obs.qtype,
    status,
    brokenLink,
    chain,
    answer: answer.answer,
    verification: { signaturesVerified: ctx.cost.signaturesVerified, cpuMs: Math.round(ctx.cost.cpuMs * 1000) / 1000 },
  };
}
