/**
 * The per-request SMTP session loader (decisions §9): within one request each (address, port, SNI)
 * gets one SMTP session with STARTTLS, so smtp-starttls and dane — and the starttls and dane parts of
 * mailhealth-check — read the same greeting, EHLO and certificate chain (one STARTTLS session per MX
 * address per request). A live measurement: nothing is kept beyond the request.
 *
 * Every question names an address the target guard returned; the probe re-checks the socket's remote
 * address with the guard before it reads a byte.
 */
import { hostname as machineName } from 'node:os';
import type { Config } from '../config.js';
import { UnavailableError } from '../errors.js';
import { smtpSession, type SmtpSessionResult } from '../probes/smtp/session.js';
import { unobserved, type ObserveUpstream } from '../platform/metrics.js';
import { createRequestLoader } from './request-loader.js';
import type { ConnectionSettings } from '../probes/tls/settings.js';
import { spendThen, type ConnectionBudget } from './connection-budget.js';

export interface SmtpQuestion {
  /** an address the target guard returned */
  readonly ip: string;
  readonly port: number;
  /** the MX host name: SNI of the STARTTLS handshake (RFC 7672 §8.1); null for an IP literal */
  readonly servername: string | null;
  /** the target as the caller named it, for a refusal message; not part of the question */
  readonly target: string;
}

export interface SmtpLoaders {
  /** one SMTP session with STARTTLS when offered; rejects with SmtpProbeError/ProbeError or the guard's TargetRefusedError */
  smtpSession(question: SmtpQuestion): Promise<SmtpSessionResult>;
}

export interface SmtpLoaderDependencies {
  readonly smtp: Config['smtp'];
  /** trust anchors (tests: the lab root) and the TLS handshake bound */
  readonly connections: ConnectionSettings;
  readonly assertAllowed: (address: string, targetForMessage: string) => void;
  readonly signal: AbortSignal;
  /** the request's connections to targets (connection-budget.ts): each distinct session spends one */
  readonly budget: Pick<ConnectionBudget, 'spend'>;
  readonly observe?: ObserveUpstream;
}

export function smtpQuestionKey(q: SmtpQuestion): string {
  return `${q.ip}|${q.port}|${q.servername ?? ''}`;
}

/** RFC 5321 §4.1.1.1: EHLO names the client's own host; without config, this machine's name. */
export function heloName(configured: string | null): string {
  const name = configured ?? machineName();
  // a bare host name (no dot) is what most machines have; a name EHLO cannot carry falls back to a literal
  return /^[A-Za-z0-9.-]{1,253}$/.test(name) ? name : 'localhost';
}

export function createSmtpLoaders(deps: SmtpLoaderDependencies): SmtpLoaders {
  const observe = deps.observe ?? unobserved;
  const { smtp, connections, signal } = deps;
  const helo = heloName(smtp.heloName);
  const sessions = createRequestLoader(
    (q: SmtpQuestion) =>
      spendThen(deps.budget, `an SMTP session with ${q.ip} port ${q.port}`, () =>
        observe(
          'smtp',
          () =>
            smtpSession({
              ip: q.ip,
              port: q.port,
              servername: q.servername,
              heloName: helo,
              starttls: true,
              connectTimeoutMs: connections.connectTimeoutMs,
              replyTimeoutMs: smtp.replyTimeoutMs,
              handshakeTimeoutMs: connections.handshakeTimeoutMs,
              sessionTimeoutMs: smtp.sessionTimeoutMs,
              signal,
              ...(connections.tlsCa !== undefined ? { ca: connections.tlsCa } : {}),
              assertRemote: (remoteAddress) => deps.assertAllowed(remoteAddress, q.target),
            }),
          (r) => (r.starttls?.handshake ? 'starttls' : r.starttlsOffered ? 'tls-failed' : 'plain'),
        ),
      ),
    smtpQuestionKey,
  );
  return {
    smtpSession: (question) =>
      smtp.enabled ? sessions.load(question) : Promise.reject(new UnavailableError(SMTP_DISABLED)),
  };
}

export const SMTP_DISABLED = 'SMTP probes are turned off on this instance (smtp.enabled is false)';
