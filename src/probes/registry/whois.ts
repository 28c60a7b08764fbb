/**
 * WHOIS client (RFC 3912): one TCP connection per question, the query line is
 * sent, the server answers and closes. Everything that reaches the network is
 * injected: the server and port come from the caller, name resolution from
 * `resolveHost` (the service's DNS probe), the socket factory from `connect`.
 *
 * Bounds (decisions §8): one deadline of `timeoutMs` covers resolution,
 * connection and the whole answer; at most `maxBytes` (256 KiB) are kept, after
 * which the socket is destroyed and the answer marked truncated.
 */
import net, { type Socket } from 'node:net';
import { ProbeError } from '../errors.js';

/** decisions §8: WHOIS answers are read up to 256 KiB. */
export const WHOIS_MAX_BYTES = 262_144;

export interface WhoisAnswer {
  /** the server asked, as named by the caller */
  server: string;
  text: string;
  /** the answer was cut at maxBytes, or the connection was reset part-way */
  truncated: boolean;
  elapsedMs: number;
}

export interface WhoisQueryOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  maxBytes?: number;
}

export interface WhoisClient {
  /** Asks `server:port` about the domain `query` (an A-label name; validated here). */
  query(server: string, port: number, query: string, opts: WhoisQueryOptions): Promise<WhoisAnswer>;
}

export interface WhoisClientDeps {
  /** socket factory; default `net.connect` */
  connect?: (host: string, port: number) => Socket;
  /**
   * Name → address, normally the service's DNS probe. Without it a server given
   * by name is handed to `connect` as is (the operating system resolves it); tests
   * always pass IP literals or a loopback name map.
   */
  resolveHost?: (host: string, signal?: AbortSignal) => Promise<string>;
}

const LDH_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

/**
 * Host name syntax (RFC 1123 §2.1 LDH labels of 1–63 octets, at most 253 in all).
 * A single label is allowed (a TLD is a valid WHOIS question). This is the only
 * gate between a name and a query line, so it also excludes spaces, CR/LF and
 * every control character: nothing can be smuggled into the line (RFC 3912 §2).
 */
export function isLdhDomainName(name: string): boolean {
  if (name.length === 0 || name.length > 253) return false;
  return name.split('.').every((label) => LDH_LABEL.test(label));
}

/**
 * Servers that want more than the bare name. Keyed by the server's host name as
 * it appears in referrals (IANA `refer:`, registry `Registrar WHOIS Server:`).
 */
const QUERY_SYNTAX: ReadonlyMap<string, (name: string) => string> = new Map([
  // DENIC answers plain queries with a short status only; "-T dn,ace" asks for the
  // full domain object with IDNs in ACE (A-label) form.
  ['whois.denic.de', (name: string) => `-T dn,ace ${name}`],
  // Verisign's .com/.net server also matches name-server and registrar objects
  // whose names contain the query; the "domain" keyword restricts it to domains.
  ['whois.verisign-grs.com', (name: string) => `domain ${name}`],
  // JPRS answers in Japanese unless the query ends with "/e" (English).
  ['whois.jprs.jp', (name: string) => `${name}/e`],
]);

/** The line sent to `server` for `name`, without the CRLF. */
export function whoisQueryLine(server: string, name: string): string {
  const format = QUERY_SYNTAX.get(server.toLowerCase());
  return format ? format(name) : name;
}

/** UTF-8 when the bytes are valid UTF-8, else Latin-1 (many ccTLD servers). */
export function decodeWhoisText(bytes: Uint8Array, truncated: boolean): string {
  try {
    // With `stream: true` an incomplete sequence at the end (our cut at maxBytes)
    // is held back instead of failing the whole answer.
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: truncated });
  } catch {
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  }
}

const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

function socketFailureKind(code: string | undefined): 'REFUSED' | 'UNREACHABLE' {
  return code === 'ECONNREFUSED' ? 'REFUSED' : 'UNREACHABLE';
}

export function createWhoisClient(deps: WhoisClientDeps = {}): WhoisClient {
  const connect = deps.connect ?? ((host: string, port: number) => net.connect({ host, port }));

  return {
    async query(server, port, query, opts) {
      const upstream = `${server}:${port}`;
      if (!isLdhDomainName(server) && net.isIP(server) === 0) {
        throw new ProbeError('MALFORMED', upstream, `"${server}" is not a valid WHOIS server name`);
      }
      if (!isLdhDomainName(query)) {
        throw new ProbeError(
          'MALFORMED',
          upstream,
          `refusing to send an invalid domain name to WHOIS server ${upstream}`,
        );
      }
      const maxBytes = opts.maxBytes ?? WHOIS_MAX_BYTES;
      const started = performance.now();
      const line = `${whoisQueryLine(server, query)}\r\n`;

      return new Promise<WhoisAnswer>((resolve, reject) => {
        let socket: Socket | null = null;
        let settled = false;
        const chunks: Buffer[] = [];
        let received = 0;

        const cleanup = (): void => {
          settled = true;
          clearTimeout(timer);
          opts.signal?.removeEventListener('abort', onAbort);
          socket?.destroy();
        };
        const fail = (error: ProbeError): void => {
          if (settled) return;
          cleanup();
          reject(error);
        };
        const finish = (truncated: boolean): void => {
          if (settled) return;
          cleanup();
          if (received === 0) {
            reject(
              new ProbeError('MALFORMED', upstream, `WHOIS server ${upstream} closed the connection without an answer`),
            );
            return;
          }
          const bytes = Buffer.concat(chunks, received);
          resolve({
            server,
            text: decodeWhoisText(bytes, truncated),
            truncated,
            elapsedMs: Math.round(performance.now() - started),
          });
        };

        const timer = setTimeout(() => {
          fail(
            new ProbeError('TIMEOUT', upstream, `WHOIS server ${upstream} did not answer within ${opts.timeoutMs} ms`),
          );
        }, opts.timeoutMs);
        const onAbort = (): void => {
          fail(new ProbeError('ABORTED', upstream, `WHOIS query to ${upstream} was cancelled`));
        };
        if (opts.signal?.aborted) {
          onAbort();
          return;
        }
        opts.signal?.addEventListener('abort', onAbort, { once: true });

        const open = (address: string): void => {
          if (settled) return;
          let s: Socket;
          try {
            s = connect(address, port);
          } catch (err) {
            // e.g. a port out of range: net.connect throws instead of emitting 'error'
            fail(
              new ProbeError('UNREACHABLE', upstream, `WHOIS server ${upstream} could not be reached`, { cause: err }),
            );
            return;
          }
          socket = s;
          s.on('connect', () => s.write(line));
          s.on('data', (chunk: Buffer) => {
            if (settled) return;
            const room = maxBytes - received;
            if (chunk.length > room) {
              // Past the bound: keep what fits and stop reading (decisions §8).
              chunks.push(chunk.subarray(0, room));
              received += room;
              finish(true);
              return;
            }
            chunks.push(chunk);
            received += chunk.length;
          });
          s.on('end', () => finish(false));
          s.on('error', (err: NodeJS.ErrnoException) => {
            if (received > 0 && RESET_CODES.has(err.code ?? '')) {
              // Some servers reset instead of closing once they have written the
              // answer; keep what arrived but say it may be incomplete.
              finish(true);
              return;
            }
            const kind = socketFailureKind(err.code);
            const what =
              kind === 'REFUSED' ? 'refused the connection' : `could not be reached (${err.code ?? err.message})`;
            fail(new ProbeError(kind, upstream, `WHOIS server ${upstream} ${what}`, { cause: err }));
          });
          s.on('close', () => finish(false));
        };

        if (net.isIP(server) !== 0 || !deps.resolveHost) {
          open(server);
          return;
        }
        deps.resolveHost(server, opts.signal).then(open, (err: unknown) => {
          if (err instanceof ProbeError) fail(err);
          else {
            fail(
              new ProbeError('UNREACHABLE', upstream, `WHOIS server name ${server} could not be resolved`, {
                cause: err,
              }),
            );
          }
        });
      });
    },
  };
}
