/**
 * smtp-starttls: the awaiting part. The host goes through the target guard; the session is the
 * request's (src/loaders/smtp.ts), so dane and mailhealth-check read the same one. What the
 * session means is starttls.ts's.
 */
import { performance } from 'node:perf_hooks';
import { ProbeError } from '../../../probes/errors.js';
import type { SmtpSessionResult } from '../../../probes/smtp/session.js';
import type { HostOrIp } from '../../../validation.js';
import type { CheckContext } from '../../../loaders/context.js';
import { firstAddressPerFamily } from '../../tls-http/shared/main-handshake.js';
import { starttlsResult, starttlsUnreachable, type SmtpStarttlsResult, type StarttlsTarget } from './starttls.js';

/** mail-transport.md: smtp-starttls and dane talk to port 25 unless told otherwise. */
export const SMTP_PORT = 25;

export type SmtpOutcome =
  | { readonly kind: 'session'; readonly session: SmtpSessionResult }
  | { readonly kind: 'unreachable'; readonly error: ProbeError; readonly elapsedMs: number };

/**
 * The guarded target and the request's session with its first address (IPv4 first, RFC 6724 order
 * aside: one connection per host, as mail-transport.md asks). A session that could not start is an
 * outcome (`unreachable`); the request ending, a refused target or a bug is thrown.
 */
export async function smtpOutcome(
  ctx: CheckContext,
  host: HostOrIp,
  port: number,
): Promise<{ target: StarttlsTarget; outcome: SmtpOutcome }> {
  const name = host.kind === 'ip' ? host.ip : host.hostname;
  const checked = await ctx.guard.check(host, ctx.signal, 'host', 'caller');
  const ip = firstAddressPerFamily(checked.addresses)[0]?.address;
  if (ip === undefined) throw new RangeError('the target guard returned no address');
  const target: StarttlsTarget = { host: name, certificateName: name, ip, port };
  const started = performance.now();
  try {
    const session = await ctx.smtpSession({
      ip,
      port,
      servername: host.kind === 'hostname' ? host.hostname : null,
      target: name,
    });
    return { target, outcome: { kind: 'session', session } };
  } catch (e) {
    if (e instanceof ProbeError && e.kind !== 'ABORTED')
      return { target, outcome: { kind: 'unreachable', error: e, elapsedMs: performance.now() - started } };
    throw e;
  }
}

export async function runSmtpStarttls(
  ctx: CheckContext,
  input: { host: HostOrIp; port: number },
): Promise<SmtpStarttlsResult> {
  const { target, outcome } = await smtpOutcome(ctx, input.host, input.port);
  return outcome.kind === 'session'
    ? starttlsResult(target, outcome.session, new Date(ctx.now()))
    : starttlsUnreachable(target, outcome.error, outcome.elapsedMs);
}
