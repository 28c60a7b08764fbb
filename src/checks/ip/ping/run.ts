/**
 * ping: the awaiting part. The host goes through the target guard; the first IPv4
 * address (else the first IPv6 one) is pinged through the check context's loader while
 * its PTR record is looked up through the system resolver.
 *
 * The reverse lookup is decoration: a PTR question that fails (time-out, SERVFAIL,
 * REFUSED, garbage) does not turn an answered ping into an error. `reverseDns` is then ""
 * and `reverseDnsError` says why, so the failure is reported rather than passed off as
 * "no PTR record".
 */
import { InputError } from '../../../errors.js';
import { ProbeError } from '../../../probes/errors.js';
import type { HostOrIp } from '../../../validation.js';
import type { CheckContext } from '../../../loaders/context.js';
import {
  addressToPing,
  pingData,
  reverseDnsFromResponse,
  reverseLookupName,
  type PingData,
  type ReverseDns,
} from './result.js';

export async function runPingCheck(ctx: CheckContext, host: HostOrIp): Promise<PingData> {
  const checked = await ctx.guard.check(host, ctx.signal, 'host', 'caller');
  const address = addressToPing(checked.addresses);
  const [statistics, reverse] = await Promise.all([
    ctx.ping({ ip: address.address, target: checked.input }),
    lookUpReverseDns(ctx, address.address),
  ]);
  return pingData(checked.input, address.address, reverse, statistics);
}

async function lookUpReverseDns(ctx: CheckContext, ip: string): Promise<ReverseDns> {
  const name = reverseLookupName(ip);
  try {
    return reverseDnsFromResponse(await ctx.resolve(name, 'PTR'), name);
  } catch (e) {
    // An upstream failure, or no system resolver configured (InputError 'resolver'):
    // reported beside an empty name. Anything else is a bug and passes on.
    if (e instanceof ProbeError || e instanceof InputError) return { name: '', error: e.message };
    throw e;
  }
}
