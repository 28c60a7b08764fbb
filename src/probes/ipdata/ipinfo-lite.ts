/**
 * The IPinfo Lite API client: `GET {baseUrl}/lite/{ip}?token=…` answering JSON
 * with ip, asn ("AS15169"), as_name, as_domain, country_code, country,
 * continent_code and continent (https://ipinfo.io/developers/lite-api).
 *
 * Every failure is a ProbeError, so the caller can fall back to the database:
 * time-out (TIMEOUT), the caller's signal (ABORTED), an error status such as 429
 * or 403 (HTTP_STATUS), a body over the byte bound (TOO_LARGE), anything but a
 * JSON record for the address asked (MALFORMED), and connection failures.
 * Messages name the upstream by host only: the URL carries the token.
 */
import { Deadline } from '../../deadline.js';
import { request, type Dispatcher } from 'undici';
import { factsFromIpinfoRecord, IpinfoRecordError } from './ipinfo-record.js';
import { addressWords } from './address-words.js';
import type { IpFacts } from './facts.js';
import { ProbeError, type ProbeErrorKind } from '../errors.js';

export interface IpinfoLiteOptions {
  /** e.g. "https://api.ipinfo.io"; a path prefix is kept ("http://proxy/ipinfo" → /ipinfo/lite/{ip}). */
  baseUrl: string;
  /** Sent as the `token` query parameter; omitted when null (e.g. a keyless proxy). */
  token: string | null;
  /** Bound on the whole exchange, connection to last body byte (decisions §8: HTTP 10 s). */
  timeoutMs: number;
  /** A Lite answer is a few hundred bytes; default 64 KiB. */
  maxBodyBytes?: number;
  dispatcher?: Dispatcher;
}

export interface IpinfoLiteClient {
  /** Facts with source "live"; throws ProbeError when IPinfo cannot answer. */
  lookup(ip: string, signal?: AbortSignal): Promise<IpFacts>;
}

const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

export function createIpinfoLiteClient(options: IpinfoLiteOptions): IpinfoLiteClient {
  const base = new URL(options.baseUrl);
  const upstream = base.host;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const fail = (kind: ProbeErrorKind, what: string, cause?: unknown): ProbeError =>
    new ProbeError(kind, upstream, `IPinfo (${upstream}) ${what}`, cause === undefined ? undefined : { cause });

  return {
    async lookup(ip: string, signal?: AbortSignal): Promise<IpFacts> {
      const address = addressWords(ip);
      if (!address) throw new TypeError(`not an IP address: ${JSON.stringify(ip)}`);
      if (signal?.aborted) throw fail('ABORTED', 'was not asked: the request ended');

      const deadline = new Deadline(options.timeoutMs, signal);
      let body: Dispatcher.ResponseData['body'] | undefined;
      try {
        const response = await request(liteUrl(base, address.text, options.token), {
          method: 'GET',
          headers: { accept: 'application/json' },
          signal: deadline.signal,
          ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
        });
        body = response.body;
        if (response.statusCode !== 200) throw fail('HTTP_STATUS', describeStatus(response.statusCode));
        const declared = Number(response.headers['content-length']);
        if (declared > maxBodyBytes)
          throw fail('TOO_LARGE', `answered ${declared} bytes, more than the ${maxBodyBytes} allowed`);
        const text = await readBounded(body, maxBodyBytes, () =>
          fail('TOO_LARGE', `answered more than ${maxBodyBytes} bytes`),
        );
        return parseAnswer(text, address.text, ip, fail);
      } catch (e) {
        if (e instanceof ProbeError) throw e;
        if (deadline.timedOut()) throw fail('TIMEOUT', `did not answer within ${options.timeoutMs} ms`, e);
        if (signal?.aborted) throw fail('ABORTED', 'was not awaited: the request ended', e);
        throw classifyTransportError(e, fail);
      } finally {
        deadline.release();
        // Releases the socket when the body was not read to the end (error status,
        // bound exceeded, time-out). undici then emits "Request aborted" on the body:
        // that error is our own doing, so it is consumed here.
        if (body && !body.readableEnded) {
          body.on('error', () => {});
          body.destroy();
        }
      }
    },
  };
}

/** {base path}/lite/{ip}, keeping any query of the base URL and adding the token. */
function liteUrl(base: URL, ip: string, token: string | null): URL {
  const url = new URL(base.href);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/lite/${ip}`;
  url.hash = '';
  if (token !== null) url.searchParams.set('token', token);
  return url;
}

function describeStatus(status: number): string {
  if (status === 429) return 'answered HTTP 429: the request quota is used up';
  if (status === 401 || status === 403) return `answered HTTP ${status}: the token was refused`;
  return `answered HTTP ${status}`;
}

async function readBounded(body: AsyncIterable<Buffer>, maxBytes: number, tooLarge: () => ProbeError): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += chunk.length;
    if (total > maxBytes) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total).toString('utf8');
}

function parseAnswer(
  text: string,
  askedText: string,
  ip: string,
  fail: (kind: ProbeErrorKind, what: string, cause?: unknown) => ProbeError,
): IpFacts {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw fail('MALFORMED', 'answered something that is not JSON', e);
  }
  // An answer must be about the address asked: a captive portal or a wrong
  // baseUrl can answer 200 with some other JSON.
  const answeredIp = json !== null && typeof json === 'object' ? (json as { ip?: unknown }).ip : undefined;
  const answered = typeof answeredIp === 'string' ? addressWords(answeredIp) : null;
  if (!answered || answered.text !== askedText)
    throw fail('MALFORMED', 'answered a record that is not about the address asked');
  try {
    return factsFromIpinfoRecord(ip, json, 'live');
  } catch (e) {
    if (e instanceof IpinfoRecordError) throw fail('MALFORMED', `answered an unexpected record: ${e.message}`, e);
    throw e;
  }
}

const TLS_CODE =
  /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|ERR_OSSL_)/;

/** Sorts a connection-level failure by its error code (Node's and undici's). */
function classifyTransportError(
  e: unknown,
  fail: (kind: ProbeErrorKind, what: string, cause?: unknown) => ProbeError,
): ProbeError {
  const err = e as { code?: unknown; cause?: { code?: unknown } } | null;
  const code =
    typeof err?.code === 'string' ? err.code : typeof err?.cause?.code === 'string' ? err.cause.code : 'unknown error';
  if (code === 'ECONNREFUSED') return fail('REFUSED', 'refused the connection', e);
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return fail('TIMEOUT', `did not answer in time (${code})`, e);
  }
  if (TLS_CODE.test(code)) return fail('TLS', `failed the TLS handshake (${code})`, e);
  if (code.startsWith('HPE_')) return fail('MALFORMED', `answered something that is not HTTP (${code})`, e);
  return fail('UNREACHABLE', `could not be reached (${code})`, e);
}
