/**
 * mx-lookup: the awaiting part, and the MX question every check that follows MX hosts asks (`askMx`:
 * mailhealth-check, mta-sts). Questions go through the check context, formatting is records.ts's.
 */
import type { CheckContext } from '../../../loaders/context.js';
import { recordsOfType } from '../../../probes/dns/client.js';
import { providerOfMxHost } from '../shared/mail-providers.js';
import { bestExchanges, followedAddresses, isNullMx } from '../shared/mx-exchanges.js';
import { formatLookupRecords, type MxEntry } from '../shared/records.js';

export interface MxHost {
  priority: number;
  exchange: string;
  /** the exchange's first IPv4 address (else its first IPv6 address); "" when it has none */
  ip: string;
  /** its addresses followed: the first MX_MAX_ADDRESSES_PER_EXCHANGE, IPv4 first */
  addresses: string[];
  /** its addresses beyond those, not followed */
  omittedAddresses: number;
  provider: string | null;
}

export interface MxLookupResult {
  domain: string;
  /** the MX_MAX_EXCHANGES best hosts, by priority */
  hosts: MxHost[];
  /** MX hosts beyond those, neither resolved nor reported */
  omittedExchanges: number;
  /** something was left out: omittedExchanges, or a host's omittedAddresses */
  truncated: boolean;
  /** RFC 7505: a single "MX 0 ." says the domain accepts no mail */
  nullMx: boolean;
  rcode: 'NOERROR' | 'NXDOMAIN';
}

/** The domain's MX answer as the checks that follow MX hosts use it (mx-exchanges.ts decides which). */
export interface MxAnswer {
  rcode: 'NOERROR' | 'NXDOMAIN';
  nullMx: boolean;
  /** the hosts followed, by priority */
  exchanges: MxEntry[];
  /** hosts beyond them */
  omittedExchanges: number;
}

/** The MX question of the system resolver (once per request, shared by every check that asks it). */
export async function askMx(ctx: CheckContext, domain: string): Promise<MxAnswer> {
  const response = await ctx.resolve(domain, 'MX');
  const records = formatLookupRecords(recordsOfType(response, domain, 'MX')).MX;
  const best = bestExchanges(records);
  return {
    rcode: response.rcode,
    nullMx: isNullMx(records),
    exchanges: best.followed,
    omittedExchanges: best.omitted,
  };
}

export async function runMxLookup(ctx: CheckContext, domain: string): Promise<MxLookupResult> {
  const mx = await askMx(ctx, domain);
  const hosts = await Promise.all(
    mx.exchanges.map(async (m): Promise<MxHost> => {
      const addresses = followedAddresses(await ctx.addresses(m.exchange));
      const ip = (addresses.followed.find((a) => a.family === 4) ?? addresses.followed[0])?.address ?? '';
      return {
        priority: m.priority,
        exchange: m.exchange,
        ip,
        addresses: addresses.followed.map((a) => a.address),
        omittedAddresses: addresses.omitted,
        provider: providerOfMxHost(m.exchange),
      };
    }),
  );
  return {
    domain,
    hosts,
    omittedExchanges: mx.omittedExchanges,
    truncated: mx.omittedExchanges > 0 || hosts.some((h) => h.omittedAddresses > 0),
    nullMx: mx.nullMx,
    rcode: mx.rcode,
  };
}
