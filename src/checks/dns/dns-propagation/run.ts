/**
 * dns-propagation: the awaiting part. Every configured public resolver is asked in parallel, each
 * question bounded by its own `dns.timeoutMs` (so a dead resolver costs one time-out, not one per
 * resolver), while the domain's authoritative servers are asked for the expected answer
 * (authoritative-run.ts). Nothing comes from the cross-request cache (decisions §9: propagation is a
 * live measurement); within the request each distinct question is still asked once. The verdict is
 * propagation.ts's.
 */
import { withDeadline } from '../../../deadline.js';
import type { PublicResolver } from '../../../config.js';
import { InputError } from '../../../errors.js';
import { recordsOfType } from '../../../probes/dns/client.js';
import { isProbeError, ProbeError } from '../../../probes/errors.js';
import { checkParameterText } from '../../../validation.js';
import type { CheckContext } from '../../../loaders/context.js';
import { authoritativeRecords } from './authoritative-run.js';
import {
  allResolversFailed,
  evaluatePropagation,
  type PropagationResult,
  type ResolverOutcome,
} from './propagation.js';
import { isLookupType, LOOKUP_TYPES, recordText, type LookupType } from '../shared/records.js';

/**
 * The authoritative answer is found in steps (zone, name servers, their addresses, the question, an
 * alias into another zone), each bounded by one time-out; past two time-outs in all the majority
 * stands in, so a slow zone cannot hold the check far beyond the resolvers' single time-out.
 */
const AUTHORITATIVE_BUDGET_TIMEOUTS = 2;

/** `type` (api-v1.md rule 5): one of the seven lookup types, any case; absent means A. */
export function parsePropagationType(parameter: string, value: string | null | undefined): LookupType {
  if (value === null || value === undefined || value.trim() === '') return 'A';
  const text = checkParameterText(parameter, value);
  const type = text.toUpperCase();
  if (!isLookupType(type)) {
    throw new InputError(
      parameter,
      `${parameter}: ${JSON.stringify(text.slice(0, 40))} is not one of ${LOOKUP_TYPES.join(', ')}`,
    );
  }
  return type;
}

export async function runDnsPropagation(
  ctx: CheckContext,
  domain: string,
  type: LookupType,
): Promise<PropagationResult> {
  const [outcomes, authoritative] = await Promise.all([
    Promise.all(ctx.config.dns.publicResolvers.map((resolver) => askResolver(ctx, resolver, domain, type))),
    // null when it takes longer than its budget (its questions end on their own bounds)
    withDeadline(
      authoritativeRecords(ctx, domain, type).catch((e: unknown) => {
        // Without the authoritative answer the majority stands in (decisions §5); a request that ended still ends.
        if (isProbeError(e) && e.kind !== 'ABORTED') return null;
        throw e;
      }),
      AUTHORITATIVE_BUDGET_TIMEOUTS * ctx.config.dns.timeoutMs,
      () => null,
    ),
  ]);
  if (allResolversFailed(outcomes)) {
    const failures = outcomes.map((o) => `${o.resolver.name}: ${o.kind === 'error' ? o.error : 'answered'}`);
    throw new ProbeError(
      'UNREACHABLE',
      ctx.config.dns.publicResolvers.map((r) => r.ip).join(', '),
      `no public resolver answered ${type} ${domain}: ${failures.join('; ')}`,
    );
  }
  return evaluatePropagation({ domain, type, outcomes, authoritative });
}

async function askResolver(
  ctx: CheckContext,
  resolver: PublicResolver,
  domain: string,
  type: LookupType,
): Promise<ResolverOutcome> {
  const who = { name: resolver.name, ip: resolver.ip, countryCode: resolver.countryCode };
  const started = performance.now();
  const elapsed = () => Math.round((performance.now() - started) * 10) / 10;
  try {
    const response = await ctx.dnsLive({ name: domain, type, server: resolver.address });
    return {
      kind: 'answer',
      resolver: who,
      records: recordsOfType(response, domain, type).map(recordText),
      responseTime: elapsed(),
    };
  } catch (e) {
    // A resolver's failure is a finding of this check (api-v1.md error rule 8); the request ending is not.
    if (isProbeError(e) && e.kind !== 'ABORTED')
      return { kind: 'error', resolver: who, error: e.message, responseTime: elapsed() };
    throw e;
  }
}
