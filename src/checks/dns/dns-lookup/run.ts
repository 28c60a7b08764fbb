/** dns-lookup: the awaiting part. Questions go through the check context (per-request de-duplication, TTL cache), formatting is records.ts's. */
import type { HostPort } from '../../../config.js';
import { recordsOfType, type DnsRecord, type DnsResponse } from '../../../probes/dns/client.js';
import { ProbeError } from '../../../probes/errors.js';
import type { CheckContext } from '../../../loaders/context.js';
import { formatLookupRecords, LOOKUP_TYPES, type LookupRecords, type LookupType } from '../shared/records.js';
export interface ResolverChoice {
  name: string;
  ip: string;
  /** the `resolver` parameter as given, or null */
  requested: string | null;
  /** why the system resolver was used instead of the requested one, or null */
  note: string | null;
}

export interface TypeFailure {
  type: string;
  code: string;
  message: string;
}

export interface DnsLookupResult {
  domain: string;
  /** NOERROR, or NXDOMAIN when the name does not exist (every type answered NXDOMAIN) */
  rcode: 'NOERROR' | 'NXDOMAIN';
  records: LookupRecords;
  resolver: ResolverChoice;
  /** types whose question failed (time-out, SERVFAIL, ...): their arrays are empty *because of the failure* */
  errors: TypeFailure[];
}

/**
 * `resolver` is one of the configured public resolvers' `ip`, or "system"; anything else falls back
 * to the system resolver (api-v1.md rule 4) and the answer says so in `note`.
 */
export function chooseResolver(
  ctx: CheckContext,
  requested: string | null,
): { choice: ResolverChoice; server: HostPort } {
  const publicResolver = requested ? ctx.config.dns.publicResolvers.find((r) => r.ip === requested) : undefined;
  if (publicResolver) {
    return {
      choice: { name: publicResolver.name, ip: publicResolver.ip, requested, note: null },
      server: publicResolver.address,
    };
  }
  const server = ctx.systemResolver;
  const note =
    requested && requested !== 'system'
      ? `"${requested}" is not one of the offered resolvers (${ctx.config.dns.publicResolvers.map((r) => r.ip).join(', ')} or system): the system resolver was used`
      : null;
  return { choice: { name: 'system', ip: server.host, requested, note }, server };
}

/** The seven types in parallel; a type that fails is reported in `errors`, all failing is an error. */
export async function runDnsLookup(
  ctx: CheckContext,
  domain: string,
  requestedResolver: string | null,
): Promise<DnsLookupResult> {
  const { choice, server } = chooseResolver(ctx, requestedResolver);
  const outcomes = await Promise.allSettled(LOOKUP_TYPES.map((type) => ctx.dns({ name: domain, type, server })));
  const records: DnsRecord[] = [];
  const errors: TypeFailure[] = [];
  const answered: DnsResponse[] = [];
  outcomes.forEach((o, i) => {
    const type = LOOKUP_TYPES[i] as LookupType;
    if (o.status === 'fulfilled') {
      answered.push(o.value);
      records.push(...recordsOfType(o.value, domain, type));
    } else {
      errors.push(failureOf(type, o.reason));
    }
  });
  if (answered.length === 0) throw firstError(outcomes);
  return {
    domain,
    rcode: answered.every((r) => r.rcode === 'NXDOMAIN') ? 'NXDOMAIN' : 'NOERROR',
    records: formatLookupRecords(records),
    resolver: choice,
    errors,
  };
}

function failureOf(type: string, reason: unknown): TypeFailure {
  if (reason instanceof ProbeError) return { type, code: reason.code, message: reason.message };
  throw reason;
}

function firstError(outcomes: PromiseSettledResult<unknown>[]): unknown {
  const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
  return failed?.reason ?? new Error('no DNS answer');
}
