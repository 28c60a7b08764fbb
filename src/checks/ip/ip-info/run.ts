/**
 * ip-info, asn-lookup and what-is-my-ip: the awaiting part. A domain is resolved to its first A
 * record (api-v1.md rule 6); a special-purpose address has no public routing data and is a 400.
 */
import { InputError, withArticle } from '../../../errors.js';
import { classifyAddress, normaliseIp } from '../../../net/address-class.js';
import { recordsOfType } from '../../../probes/dns/client.js';
import type { HostOrIp } from '../../../validation.js';
import type { CheckContext } from '../../../loaders/context.js';
import type { IpFacts } from '../../../probes/ipdata/facts.js';

export interface IpInfoResult extends IpFacts {
  /** null when the target was already an IP; otherwise the domain that was resolved */
  resolvedFrom: string | null;
}

export async function runIpInfo(ctx: CheckContext, target: HostOrIp): Promise<IpInfoResult> {
  let ip: string;
  let resolvedFrom: string | null = null;
  if (target.kind === 'ip') {
    ip = normaliseIp(target.ip).ip;
  } else {
    resolvedFrom = target.hostname;
    const answer = await ctx.resolve(target.hostname, 'A');
    const first = recordsOfType(answer, target.hostname, 'A')[0];
    if (!first) {
      throw new InputError(
        'target',
        answer.rcode === 'NXDOMAIN'
          ? `target: ${target.hostname} does not exist (NXDOMAIN)`
          : `target: ${target.hostname} has no A record to look up`,
      );
    }
    ip = first.data as string;
  }
  assertPublic(ip, resolvedFrom);
  return { ...(await ctx.ipFacts(ip)), resolvedFrom };
}

/** Public routing data exists only for public addresses. */
export function assertPublic(ip: string, resolvedFrom: string | null, parameter = 'target'): void {
  const verdict = classifyAddress(ip);
  if (verdict.special) {
    const subject = resolvedFrom ? `${resolvedFrom} resolves to ${ip}, ` : `${ip} is `;
    throw new InputError(
      parameter,
      `${parameter}: ${subject}${withArticle(verdict.range)} address, which has no public routing data`,
    );
  }
}
