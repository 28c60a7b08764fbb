/**
 * The job's callback (docs/contract/jobs.md "Callback"): when the job ends, `POST callbackUrl` with the job
 * (GET's `data`, not enveloped) as JSON, signed `X-Netdiag-Signature: sha256=<hex HMAC-SHA256 of the body,
 * keyed with the UTF-8 bytes of the job's callbackSecret>`. Through the target guard and the guarded
 * fetcher (every address checked, the connection made to a checked address), https only, no redirects
 * followed (a redirect would send the signed body elsewhere), 3 tries with back-off.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { InputError, NetdiagError } from '../../errors.js';
import { createCheckContext } from '../../loaders/context.js';
import { fetchGuarded } from '../../probes/http/fetcher.js';
import type { HostOrIp } from '../../validation.js';
import type { Services } from '../../services.js';
import { isIP } from 'node:net';

export const CALLBACK_TRIES = 3;

export interface CallbackState {
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  error: string | null;
}

export function newCallbackSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function signatureOf(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex')}`;
}

function targetOf(url: URL): HostOrIp {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const family = isIP(host);
  if (family === 4 || family === 6) return { kind: 'ip', ip: host, family };
  return { kind: 'hostname', hostname: host.replace(/\.$/, '') };
}

/**
 * Checks a callbackUrl at submission: an https URL whose host the target guard admits (resolved now;
 * it is checked again, address by address, when the callback is sent). Throws InputError (400).
 */
export async function checkCallbackUrl(text: unknown, services: Services, signal: AbortSignal): Promise<URL> {
  if (typeof text !== 'string' || text.length > 2048)
    throw new InputError('callbackUrl', 'callbackUrl: an https URL of at most 2048 characters');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InputError('callbackUrl', 'callbackUrl: not a URL');
  }
  if (url.protocol !== 'https:')
    throw new InputError(
      'callbackUrl',
      `callbackUrl: https only (the callback carries the job's results summary and its signature), not ${url.protocol}`,
    );
  if (url.username !== '' || url.password !== '')
    throw new InputError('callbackUrl', 'callbackUrl: credentials in the URL are not accepted');
  const checks = createCheckContext(services, signal);
  try {
    await checks.guard.check(targetOf(url), signal, 'callbackUrl');
  } catch (e) {
    if (e instanceof NetdiagError) throw new InputError('callbackUrl', `callbackUrl: ${e.message}`);
    throw e;
  }
  return url;
}

/**
 * Sends the callback, up to CALLBACK_TRIES times, `backoffMs` × 4^(try − 1) apart; a 2xx answer is
 * delivery. `onAttempt` records each outcome (so that the job shows it while it retries).
 */
export async function deliverCallback(
  services: Services,
  delivery: { url: string; secret: string; body: string; backoffMs: number; signal: AbortSignal },
  onAttempt: (state: CallbackState) => Promise<void>,
): Promise<CallbackState> {
  const signature = signatureOf(delivery.body, delivery.secret);
  let state: CallbackState = { status: 'pending', attempts: 0, error: null };
  for (let attempt = 1; attempt <= CALLBACK_TRIES; attempt++) {
    if (attempt > 1) await sleep(delivery.backoffMs * 4 ** (attempt - 2), delivery.signal);
    if (delivery.signal.aborted) return state;
    let error: string | null = null;
    try {
      const checks = createCheckContext(services, delivery.signal);
      const result = await fetchGuarded({
        url: new URL(delivery.url),
        guard: checks.guard,
        method: 'POST',
        body: Buffer.from(delivery.body),
        requestHeaders: { 'content-type': 'application/json', 'x-netdiag-signature': signature },
        acceptEncoding: '',
        timeoutMs: services.config.http.timeoutMs,
        maxRedirects: 0,
        maxBodyBytes: 0,
        readBody: false,
        certificateErrors: 'fail',
        signal: delivery.signal,
        ...(services.connections.tlsCa !== undefined ? { ca: services.connections.tlsCa } : {}),
        connectTimeoutMs: services.connections.connectTimeoutMs,
        tlsTimeoutMs: services.connections.handshakeTimeoutMs,
      });
      const status = result.final.statusCode;
      if (status < 200 || status > 299) error = `the callback URL answered ${status}`;
    } catch (e) {
      error = (e as Error).message;
    }
    state =
      error === null
        ? { status: 'delivered', attempts: attempt, error: null }
        : { status: attempt === CALLBACK_TRIES ? 'failed' : 'pending', attempts: attempt, error };
    await onAttempt(state);
    if (state.status !== 'pending') return state;
  }
  return state;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
