/**
 * Signed delivery of a JSON body to a caller's https URL: a job's callback (docs/jobs.md "Callback") and,
 * the same way, a monitor's webhook (docs/contract/monitors.md "Behaviour"). Written once here:
 *   - the URL is checked when it is given (`checkWebhookUrl`): https, no credentials, a host the target
 *     guard admits (decisions §7);
 *   - each try is a POST through the guarded fetcher (every address checked, the connection made to a
 *     checked address), no redirect followed (it would carry the signed body elsewhere), with
 *     `X-Netdiag-Timestamp: <unix seconds when sent>` and `X-Netdiag-Signature: sha256=<hex HMAC-SHA256
 *     of "<timestamp>.<body>">` keyed with the UTF-8 bytes of the secret, so a receiver that refuses old
 *     timestamps cannot be fed a captured delivery again;
 *   - 3 tries, `backoffMs` then four times that apart; a 2xx answer is delivery.
 */
import { createHmac } from 'node:crypto';
import { isIP } from 'node:net';
import { InputError, NetdiagError } from '../errors.js';
import { createCheckContext } from '../loaders/context.js';
import { fetchGuarded } from '../probes/http/fetcher.js';
import type { Services } from '../services.js';
import type { HostOrIp } from '../validation.js';

export const DELIVERY_TRIES = 3;
export const TIMESTAMP_HEADER = 'x-netdiag-timestamp';
export const SIGNATURE_HEADER = 'x-netdiag-signature';
/** a URL longer than this is refused when given */
const MAX_URL_LENGTH = 2048;

export interface DeliveryState {
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  error: string | null;
}

/** `sha256=<hex>` of "<timestamp>.<body>", keyed with the secret's UTF-8 bytes. */
export function signatureOf(timestamp: number, body: string, secret: string): string {
  return `sha256=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** The two headers of a delivery sent at `nowMs`. */
export function signedHeaders(body: string, secret: string, nowMs: number): Record<string, string> {
  const timestamp = Math.floor(nowMs / 1000);
  return { [TIMESTAMP_HEADER]: String(timestamp), [SIGNATURE_HEADER]: signatureOf(timestamp, body, secret) };
}

function targetOf(url: URL): HostOrIp {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const family = isIP(host);
  if (family === 4 || family === 6) return { kind: 'ip', ip: host, family };
  return { kind: 'hostname', hostname: host.replace(/\.$/, '') };
}

/**
 * Checks a delivery URL when it is given: an https URL whose host the target guard admits (resolved now;
 * checked again, address by address, at each try). Throws InputError (400) prefixed with `field`.
 */
export async function checkWebhookUrl(
  text: unknown,
  services: Services,
  signal: AbortSignal,
  field = 'callbackUrl',
): Promise<URL> {
  const refuse = (why: string) => new InputError(field, `${field}: ${why}`);
  if (typeof text !== 'string' || text.length > MAX_URL_LENGTH)
    throw refuse(`an https URL of at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw refuse('not a URL');
  }
  if (url.protocol !== 'https:')
    throw refuse(`https only (the delivery carries a signed summary), not ${url.protocol}`);
  if (url.username !== '' || url.password !== '') throw refuse('credentials in the URL are not accepted');
  const checks = createCheckContext(services, signal);
  try {
    await checks.guard.check(targetOf(url), signal, field);
  } catch (e) {
    if (e instanceof NetdiagError) throw refuse(e.message);
    throw e;
  }
  return url;
}

export interface Delivery {
  readonly url: string;
  readonly secret: string;
  readonly body: string;
  /** more headers of every try (a monitor's X-Netdiag-Event-Id) */
  readonly headers?: Readonly<Record<string, string>>;
  readonly backoffMs: number;
  readonly signal: AbortSignal;
}

/**
 * Sends the body, up to DELIVERY_TRIES times, `backoffMs` × 4^(try − 2) after the previous try; each try
 * is signed when it is sent. `onAttempt` records each outcome (so that it shows while it retries).
 */
export async function deliverSigned(
  services: Services,
  delivery: Delivery,
  onAttempt: (state: DeliveryState) => Promise<void>,
): Promise<DeliveryState> {
  let state: DeliveryState = { status: 'pending', attempts: 0, error: null };
  for (let attempt = 1; attempt <= DELIVERY_TRIES; attempt++) {
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
        requestHeaders: {
          ...delivery.headers,
          'content-type': 'application/json',
          ...signedHeaders(delivery.body, delivery.secret, services.now()),
        },
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
      if (status < 200 || status > 299) error = `the URL answered ${status}`;
    } catch (e) {
      error = (e as Error).message;
    }
    state =
      error === null
        ? { status: 'delivered', attempts: attempt, error: null }
        : { status: attempt === DELIVERY_TRIES ? 'failed' : 'pending', attempts: attempt, error };
    await onAttempt(state);
    if (state.status !== 'pending') return state;
  }
  return state;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    timer.unref();
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
