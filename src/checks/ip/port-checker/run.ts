/**
 * port-checker: the awaiting part. The target goes through the guard and the connection through the check
 * context's loaders (one per request per address and port); what the outcome means is probes/tcp/port-state.ts's.
 */
import type { HostOrIp } from '../../../validation.js';
import type { CheckContext } from '../../../loaders/context.js';
import { portCheckerData, type PortCheckerData } from '../../../probes/tcp/port-state.js';
import { preferredAddress } from '../../tls-http/shared/main-handshake.js';

export interface PortCheckerResult extends PortCheckerData {
  /** the address connected to */
  ip: string;
  /** why the port counts as filtered ("no answer within 5000 ms", "EHOSTUNREACH"); null when open or closed */
  reason: string | null;
}

/** port-checker: one TCP connection attempt to the target's preferred address. */
export async function runPortChecker(
  ctx: CheckContext,
  input: { host: HostOrIp; port: number },
): Promise<PortCheckerResult> {
  const { host, port } = input;
  const checked = await ctx.guard.check(host, ctx.signal, 'host', 'caller');
  const ip = preferredAddress(checked.addresses);
  const outcome = await ctx.tcpProbe({ ip, port, target: checked.input });
  return { ...portCheckerData(checked.input, port, outcome), ip, reason: outcome.error };
}
