/**
 * Collection through the system resolver (`dnssec.source: resolver`): every question with DO and CD
 * (RFC 4035 §3.2.2), so that a resolver that validates still hands over data it finds bogus. The
 * names on the way are known from the question, so DS and DNSKEY of every one of them and the
 * question itself go out at once: the critical path is one question through the resolver.
 * Each goes through the check context (coalesced, cached, charged to the request's budget).
 */
import type { HostPort } from '../../../config.js';
import { InputError } from '../../../errors.js';
import type { CheckContext } from '../../../loaders/context.js';
import type { RecordType } from '../../../probes/dns/client.js';
import { MAX_CHAIN_QUESTIONS } from './bounds.js';
import { askedOrFailure } from './failures.js';
import { isAtOrBelow, namesFromRoot } from './names.js';
import type { ChainObservations, TrustAnchor } from './observations.js';

export interface Collected {
  readonly observations: ChainObservations;
  readonly questions: number;
}

export async function collectThroughResolver(
  ctx: Pick<CheckContext, 'dns' | 'now'>,
  resolver: HostPort,
  qname: string,
  qtype: RecordType,
  anchors: readonly TrustAnchor[],
): Promise<Collected> {
  const anchorZone = anchors[0]!.owner;
  const names = namesFromRoot(qname).filter((n) => isAtOrBelow(n, anchorZone));
  const questions = 2 * names.length;
  if (questions > MAX_CHAIN_QUESTIONS) {
    throw new InputError(
      'domain',
      `${qname} has too many labels: its chain would take more than ${MAX_CHAIN_QUESTIONS} questions`,
    );
  }
  const ask = (name: string, type: RecordType) =>
    askedOrFailure(ctx.dns({ name, type, server: resolver, dnssecOk: true, checkingDisabled: true }));
  const [answer, perName] = await Promise.all([
    ask(qname, qtype),
    Promise.all(
      names.map(async (name, i) => {
        const [ds, dnskey] = await Promise.all([i === 0 ? null : ask(name, 'DS'), ask(name, 'DNSKEY')]);
        return { name, ds, dnskey };
      }),
    ),
  ]);
  return {
    observations: { qname, qtype, anchors, names: perName, answer, nowSeconds: Math.floor(ctx.now() / 1000) },
    questions,
  };
}
