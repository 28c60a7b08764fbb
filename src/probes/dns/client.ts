/**
 * The one DNS client every check uses (decisions §8), built on dns-packet over node:dgram and
 * node:net because node:dns can neither set DO/CD nor report AD.
 *
 * One question, one budget (`timeoutMs`, 2 s by default): the query goes out over UDP, goes out
 * again once at 40 % of the budget if nothing usable came back, and a truncated answer is asked
 * again over TCP within what is left. A dead server costs one time-out, never two.
 *
 * Outcomes: NOERROR and NXDOMAIN are results. Failures are ProbeErrors:
 *   TIMEOUT      nothing came back within the budget
 *   ABORTED      the caller's signal fired
 *   SERVFAIL     rcode SERVFAIL, or any other rcode that is not a result (FORMERR, NOTIMP, …; named in the message)
 *   REFUSED      rcode REFUSED, or nothing listens there (ICMP port unreachable on UDP, TCP connection refused)
 *   MALFORMED    an answer that cannot be read: over TCP at once; over UDP only when the budget ran out
 *                and every packet that did come back was garbage or answered something else
 *   UNREACHABLE  no route, connection reset or closed before the answer, server name not found
 * An invalid query name (label over 63 octets, name over 253 characters, non-ASCII) is an InputError.
 */
import dns from 'node:dns';
import net from 'node:net';
import { parseHostPort } from '../../config.js';
import type { HostPort } from '../../config.js';
import { settleWithin } from '../../deadline.js';
import type { ServerAddress } from './exchange.js';
import { QuestionFailures } from './failures.js';
import { displayName, encodeQuery, randomQueryId, validatedQuestion } from './message.js';
import { interpretResponse } from './response.js';
import { tcpExchange } from './tcp.js';
import type { DnsClient, DnsQuery, DnsQueryOptions, DnsResponse } from './types.js';
import { udpExchange } from './udp.js';

export type {
  CaaData,
  DnsClient,
  DnsData,
  DnskeyData,
  DnsQuery,
  DnsQueryOptions,
  DnsRecord,
  DnsResponse,
  DsData,
  MxData,
  Nsec3Data,
  NsecData,
  OpaqueData,
  RecordType,
  RrsigData,
  SoaData,
  SrvData,
  TlsaData,
} from './types.js';
export { recordsOfType, responseTtl } from './answers.js';

/**
 * How errors name the deployment's own resolvers (`dns.system`, or the operating system's): a client reads
 * that the service's resolver failed, never its address, which is inside the operator's network.
 */
export const OWN_RESOLVER_LABEL = "the service's resolver";

/** The UDP re-send goes out when this share of the budget has passed without a usable answer. */
const RESEND_AT_SHARE = 0.4;

export function createDnsClient(options: { timeoutMs: number }): DnsClient {
  return {
    query: (q: DnsQuery, opts: DnsQueryOptions = {}) => ask(q, opts.timeoutMs ?? options.timeoutMs, opts.signal),
  };
}

async function ask(q: DnsQuery, timeoutMs: number, signal: AbortSignal | undefined): Promise<DnsResponse> {
  const question = validatedQuestion(q.name, q.type);
  const upstream = formatUpstream(q.server);
  const failures = new QuestionFailures(upstream, `${q.type} ${displayName(question.name)}`, timeoutMs, q.server.label);
  if (signal?.aborted) throw failures.aborted();
  const started = performance.now();
  const deadline = started + timeoutMs;

  const server = await serverAddress(q.server, deadline, signal, failures);
  const id = randomQueryId();
  const query = encodeQuery(id, question, {
    dnssecOk: q.dnssecOk ?? false,
    checkingDisabled: q.checkingDisabled ?? false,
    recursionDesired: q.recursionDesired ?? true,
  });
  const exchange = { server, id, question, query, deadline, signal, failures };

  const udp = await udpExchange(exchange, timeoutMs * RESEND_AT_SHARE);
  const [packet, transport] =
    udp.kind === 'answer' ? [udp.packet, 'udp' as const] : [await tcpExchange(exchange), 'tcp' as const];
  return interpretResponse(packet, { transport, server: upstream, elapsedMs: performance.now() - started }, failures);
}

/** "192.0.2.1:53", "[2001:db8::1]:53" (RFC 3986 §3.2.2 brackets): how errors name a DNS server */
export function formatUpstream(server: HostPort): string {
  return server.host.includes(':') ? `[${server.host}]:${server.port}` : `${server.host}:${server.port}`;
}

/**
 * An IP literal is used as is. A name (configuration allows "host:port", e.g. a resolver container
 * in a compose file) is looked up through the operating system, within the question's budget.
 */
async function serverAddress(
  server: HostPort,
  deadline: number,
  signal: AbortSignal | undefined,
  failures: QuestionFailures,
): Promise<ServerAddress> {
  const family = net.isIP(server.host);
  if (family === 4 || family === 6) return { address: server.host, family, port: server.port };
  const found = await settleWithin<dns.LookupAddress>(
    { endsAt: deadline, signal, onTimeout: () => failures.timeout(), onAbort: () => failures.aborted() },
    (settle) => {
      dns.promises
        .lookup(server.host)
        .then(settle.resolve, (error: NodeJS.ErrnoException) => settle.reject(failures.unresolvableServer(error)));
      // getaddrinfo cannot be cancelled; a late result is ignored
      return () => {};
    },
  );
  return { address: found.address, family: found.family === 6 ? 6 : 4, port: server.port };
}

/**
 * The operating system's resolvers (node:dns getServers(), read from /etc/resolv.conf at start-up),
 * used when configuration `dns.system` is empty. Entries that do not parse are left out.
 */
export function systemResolvers(): HostPort[] {
  const servers: HostPort[] = [];
  for (const entry of dns.getServers()) {
    const parsed = parseHostPort(entry, 53);
    if (parsed !== null) servers.push(parsed);
  }
  return servers;
}
