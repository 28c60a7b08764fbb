/**
 * ssl-checker: the awaiting part. The target goes through the guard and the handshake through the check
 * context's loaders (one per request per question, shared with tls-configuration's main handshake); what the
 * certificate means is ../shared/certificate.ts's.
 */
import type { CheckContext } from '../../../loaders/context.js';
import { sslCheckerData, type SslCheckerData } from '../shared/certificate.js';
import { preferredAddress, mainHandshake } from '../shared/main-handshake.js';

export interface SslCheckerResult extends SslCheckerData {
  /** the address connected to */
  ip: string;
  port: number;
}

/** ssl-checker: one handshake with SNI; a failed handshake is an error (502/504), since there is no certificate to judge. */
export async function runSslChecker(
  ctx: CheckContext,
  input: { domain: string; port: number },
): Promise<SslCheckerResult> {
  const { domain, port } = input;
  const checked = await ctx.guard.check({ kind: 'hostname', hostname: domain }, ctx.signal, 'domain');
  const ip = preferredAddress(checked.addresses);
  const handshake = await ctx.tlsHandshake(mainHandshake(domain, ip, port));
  return { ...sslCheckerData(domain, handshake, new Date(ctx.now())), ip, port };
}
