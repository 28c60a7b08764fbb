/**
 * dane: the awaiting part. The TLSA records come from the system resolver (a validating resolver in
 * production) with DO set, so that AD says whether they are authenticated (RFC 4035 §3.2.3, RFC 6840
 * §5.8); a SERVFAIL that an answer with CD turns into data is a validation failure (bogus), as in
 * dnssec-test. The chain comes from the request's SMTP session (STARTTLS on the SMTP ports, so
 * smtp-starttls and mailhealth-check share it) or from a direct TLS handshake on any other port.
 * What it all means is dane.ts's.
 */
import { recordsOfType, type DnsResponse, type TlsaData } from '../../../probes/dns/client.js';
import { ProbeError } from '../../../probes/errors.js';
import { SMTP_DISABLED } from '../../../loaders/smtp.js';
import type { CheckContext } from '../../../loaders/context.js';
import { firstAddressPerFamily } from '../../tls-http/shared/main-handshake.js';
import { daneVerdict, tlsaName, type DaneDnssec, type DaneResult } from './dane.js';
import { unreachableText } from '../smtp-starttls/starttls.js';
import { smtpOutcome } from '../smtp-starttls/run.js';

/** RFC 7672 §2.2: SMTP relay (25) and submission (587) upgrade with STARTTLS; other ports speak TLS at once. */
export function startsWithStarttls(port: number, ctx: Pick<CheckContext, 'ports'>): boolean {
  return port === 25 || port === 587 || port === ctx.ports.smtp;
}

async function tlsaAnswer(ctx: CheckContext, name: string): Promise<{ response: DnsResponse; dnssec: DaneDnssec }> {
  const ask = (checkingDisabled: boolean) =>
    ctx.dns({ name, type: 'TLSA', server: ctx.systemResolver, dnssecOk: true, checkingDisabled });
  try {
    const response = await ask(false);
    return { response, dnssec: response.authenticData ? 'secure' : 'insecure' };
  } catch (e) {
    if (!(e instanceof ProbeError && e.kind === 'SERVFAIL')) throw e;
    // the data is there but does not validate: bogus. A SERVFAIL with CD too is the resolver failing (502).
    const unchecked = await ask(true).catch(() => {
      throw e;
    });
    return { response: unchecked, dnssec: 'bogus' };
  }
}

/** The chain the server presents (DER, leaf first), or why there is none. */
async function presentedChain(
  ctx: CheckContext,
  host: string,
  port: number,
): Promise<{ chain: Buffer[] | null; error: string | null }> {
  if (startsWithStarttls(port, ctx)) {
    if (!ctx.config.smtp.enabled) return { chain: null, error: SMTP_DISABLED };
    const { outcome } = await smtpOutcome(ctx, { kind: 'hostname', hostname: host }, port);
    if (outcome.kind === 'unreachable') return { chain: null, error: unreachableText(outcome.error, port) };
    const { session } = outcome;
    if (!session.starttlsOffered) return { chain: null, error: `${host} does not offer STARTTLS` };
    const handshake = session.starttls?.handshake;
    if (!handshake) return { chain: null, error: session.starttls?.error ?? 'STARTTLS did not complete' };
    return { chain: handshake.peerChain.map((c) => c.der), error: null };
  }
  const checked = await ctx.guard.check({ kind: 'hostname', hostname: host }, ctx.signal, 'host');
  const ip = firstAddressPerFamily(checked.addresses)[0]?.address;
  if (ip === undefined) throw new RangeError('the target guard returned no address');
  try {
    const handshake = await ctx.tlsHandshake({ ip, port, servername: host, target: host });
    return { chain: handshake.peerChain.map((c) => c.der), error: null };
  } catch (e) {
    if (e instanceof ProbeError && e.kind !== 'ABORTED') return { chain: null, error: e.message };
    throw e;
  }
}

export async function runDane(ctx: CheckContext, input: { host: string; port: number }): Promise<DaneResult> {
  const { host, port } = input;
  const name = tlsaName(host, port);
  const { response, dnssec } = await tlsaAnswer(ctx, name);
  const records = recordsOfType(response, name, 'TLSA').map((r) => r.data as TlsaData);
  // Without records, or with records that do not validate, there is nothing to match: no connection is made.
  const { chain, error } =
    records.length > 0 && dnssec !== 'bogus' ? await presentedChain(ctx, host, port) : { chain: null, error: null };
  return daneVerdict({ host, port, records, dnssec, chain, chainError: error });
}
