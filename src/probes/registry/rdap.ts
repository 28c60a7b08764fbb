/**
 * RDAP client for domain lookups (RFC 7480 transport, RFC 9082 query paths).
 * The base URL is injected (the IANA bootstrap names it). Registry answers and redirects decide
 * further hosts, so with `assertAllowed` (production) every host's addresses are checked against the
 * special-purpose ranges: IP literals here, names in the dispatcher's lookup (rdap-dispatcher.ts).
 *
 * undici 7 has no redirect option: redirects are followed here (at most 3, RFC 7480
 * §5.2 lets a registry send the client to the registrar's server). Bodies are read
 * with a byte cap (decisions §8) and one deadline covers every hop.
 */
import { Deadline } from '../../deadline.js';
import net from 'node:net';
import { request, type Dispatcher } from 'undici';
import { TargetRefusedError } from '../../errors.js';
import { ProbeError, type ProbeErrorKind } from '../errors.js';
import { isLdhDomainName } from './whois.js';

/** decisions §8: bodies are read up to 1 MiB. */
export const RDAP_MAX_BYTES = 1_048_576;
export const RDAP_MAX_REDIRECTS = 3;

export interface RdapAnswer {
  /** the URL that gave the final answer (after redirects) */
  url: string;
  status: number;
  /** the parsed body; null when the server answered 404 (no such domain: a result) */
  json: unknown | null;
}

export interface RdapQueryOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  maxBytes?: number;
}

export interface RdapClient {
  getDomain(baseUrl: string, domain: string, opts: RdapQueryOptions): Promise<RdapAnswer>;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** `<base>domain/<name>` (RFC 9082 §3.1.3); bootstrap base URLs end in "/" (RFC 9224 §3) but some do not. */
export function rdapDomainUrl(baseUrl: string, domain: string): URL {
  const base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  return new URL(`domain/${domain}`, base);
}

function isHttpUrl(url: URL): boolean {
  return url.protocol === 'https:' || url.protocol === 'http:';
}

function refuseUnlessAllowed(
  assertAllowed: (address: string, target: string) => void,
  address: string,
  host: string,
): void {
  try {
    assertAllowed(address, host);
  } catch (e) {
    if (e instanceof TargetRefusedError)
      throw new ProbeError('REFUSED', host, `RDAP server ${host} is not contacted: ${e.message}`, { cause: e });
    throw e;
  }
}

/** A refusal by the guarded lookup, as undici hands it back (possibly wrapped). */
function refusal(err: unknown): TargetRefusedError | null {
  for (let e = err, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    if (e instanceof TargetRefusedError) return e;
  }
  return null;
}

function failureKind(err: unknown): ProbeErrorKind {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'ECONNREFUSED') return 'REFUSED';
  if (typeof code === 'string' && (code.startsWith('ERR_SSL') || code.startsWith('ERR_TLS') || code.includes('CERT'))) {
    return 'TLS';
  }
  return 'UNREACHABLE';
}

async function readCapped(body: Dispatcher.ResponseData['body'], maxBytes: number, host: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      body.destroy();
      throw new ProbeError('TOO_LARGE', host, `RDAP server ${host} sent more than ${maxBytes} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

export function createRdapClient(
  deps: { dispatcher?: Dispatcher; assertAllowed?: (address: string, target: string) => void } = {},
): RdapClient {
  return {
    async getDomain(baseUrl, domain, opts) {
      let url: URL;
      try {
        url = rdapDomainUrl(baseUrl, domain);
      } catch {
        throw new ProbeError('MALFORMED', baseUrl, `RDAP base URL "${baseUrl}" is not a valid URL`);
      }
      if (!isHttpUrl(url)) throw new ProbeError('MALFORMED', url.host, `RDAP base URL "${baseUrl}" is not http(s)`);
      if (!isLdhDomainName(domain)) {
        throw new ProbeError(
          'MALFORMED',
          url.host,
          `refusing to send an invalid domain name to RDAP server ${url.host}`,
        );
      }
      const maxBytes = opts.maxBytes ?? RDAP_MAX_BYTES;

      // One deadline for every hop; the caller's signal cancels it too.
      const deadline = new Deadline(opts.timeoutMs, opts.signal);

      const interrupted = (host: string, cause: unknown): ProbeError =>
        deadline.timedOut()
          ? new ProbeError('TIMEOUT', host, `RDAP server ${host} did not answer within ${opts.timeoutMs} ms`, { cause })
          : new ProbeError('ABORTED', host, `RDAP query to ${host} was cancelled`, { cause });

      try {
        for (let hop = 0; ; hop++) {
          const host = url.host;
          if (deadline.signal.aborted) throw interrupted(host, undefined);
          const literal = url.hostname.replace(/^\[|\]$/g, '');
          if (deps.assertAllowed && net.isIP(literal)) refuseUnlessAllowed(deps.assertAllowed, literal, host);
          let response: Dispatcher.ResponseData;
          try {
            response = await request(url, {
              method: 'GET',
              headers: { accept: 'application/rdap+json, application/json;q=0.9' },
              signal: deadline.signal,
              ...(deps.dispatcher ? { dispatcher: deps.dispatcher } : {}),
            });
          } catch (err) {
            if (deadline.signal.aborted) throw interrupted(host, err);
            const refused = refusal(err);
            if (refused)
              throw new ProbeError('REFUSED', host, `RDAP server ${host} is not contacted: ${refused.message}`, {
                cause: err,
              });
            const kind = failureKind(err);
            const what =
              kind === 'REFUSED'
                ? 'refused the connection'
                : kind === 'TLS'
                  ? 'failed the TLS handshake'
                  : 'could not be reached';
            throw new ProbeError(kind, host, `RDAP server ${host} ${what}`, { cause: err });
          }

          const status = response.statusCode;
          try {
            if (REDIRECT_STATUSES.has(status)) {
              await response.body.dump();
              const location = response.headers.location;
              const target = typeof location === 'string' ? URL.parse(location, url) : null;
              if (!target || !isHttpUrl(target)) {
                throw new ProbeError('MALFORMED', host, `RDAP server ${host} redirected to an invalid location`);
              }
              if (hop >= RDAP_MAX_REDIRECTS) {
                throw new ProbeError(
                  'HTTP_STATUS',
                  host,
                  `RDAP server ${host} redirected more than ${RDAP_MAX_REDIRECTS} times`,
                );
              }
              url = target;
              continue;
            }
            if (status === 404) {
              await response.body.dump();
              return { url: url.href, status, json: null };
            }
            if (status === 429) {
              await response.body.dump();
              throw new ProbeError('HTTP_STATUS', host, `RDAP server ${host} rate-limited the query (429)`);
            }
            if (status < 200 || status >= 300) {
              await response.body.dump();
              throw new ProbeError('HTTP_STATUS', host, `RDAP server ${host} answered HTTP ${status}`);
            }
            const bytes = await readCapped(response.body, maxBytes, host);
            try {
              return { url: url.href, status, json: JSON.parse(bytes.toString('utf8')) as unknown };
            } catch {
              throw new ProbeError('MALFORMED', host, `RDAP server ${host} answered with malformed JSON`);
            }
          } catch (err) {
            if (!response.body.destroyed) response.body.destroy();
            if (err instanceof ProbeError) throw err;
            if (deadline.signal.aborted) throw interrupted(host, err);
            throw new ProbeError('UNREACHABLE', host, `RDAP server ${host} broke off the answer`, { cause: err });
          }
        }
      } finally {
        deadline.release();
      }
    },
  };
}
