/**
 * dnssec-chain (docs/contract/dnssec-chain.md): the chain of trust from the configured trust anchors down to
 * the zone holding the name, every link verified here. Collection asks (collect-resolver.ts or
 * collect-authoritative.ts, by `dnssec.source`); evaluation (dnssec-chain/evaluate.ts) is pure.
 * Every determined outcome, bogus included, is a result; only bad input and a request that ended
 * are errors.
 */
import type { CheckContext } from '../../../loaders/context.js';
import type { RecordType } from '../../../probes/dns/client.js';
import { parseTrustAnchors } from './anchors.js';
import { collectAuthoritatively } from './collect-authoritative.js';
import { collectThroughResolver } from './collect-resolver.js';
import { evaluateChain } from './evaluate.js';
import type { DnssecChainResult } from './result.js';

export type { DnssecChainResult } from './result.js';

/** The record types a caller may ask the chain for (docs/contract/dnssec-chain.md). */
export const CHAIN_RECORD_TYPES = ['A', 'AAAA', 'MX', 'TXT', 'NS', 'SOA', 'CNAME', 'DS', 'DNSKEY', 'TLSA'] as const;
export type ChainRecordType = (typeof CHAIN_RECORD_TYPES)[number];

export async function runDnssecChain(
  ctx: CheckContext,
  domain: string,
  type: ChainRecordType,
): Promise<DnssecChainResult> {
  const anchors = parseTrustAnchors(ctx.config.dnssec.trustAnchors);
  const source = ctx.config.dnssec.source;
  const qtype: RecordType = type;
  const collected =
    source === 'authoritative'
      ? await collectAuthoritatively(ctx, domain, qtype, anchors)
      : await collectThroughResolver(ctx, ctx.systemResolver, domain, qtype, anchors);
  return { ...evaluateChain(collected.observations), source, questions: collected.questions };
}
