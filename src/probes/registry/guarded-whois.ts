/**
 * WHOIS servers are named by configuration (the root) and by upstream text (referrals), so a
 * referral could point the service at an internal host. Every server therefore goes through
 * the target rules (docs/getting-started.md "Target rules") like a caller's target: a name is resolved through the
 * service's DNS and EVERY address is checked, an IP literal is checked as is, the connection
 * goes to the checked address, and the socket's remote address is re-checked before the query
 * line is written. A refused server is an upstream failure (ProbeError REFUSED).
 */
import net, { type Socket } from 'node:net';
import { withArticle } from '../../errors.js';
import { classifyAddress } from '../../net/address-class.js';
import { ProbeError, isProbeError } from '../errors.js';
import type { ResolvedAddress } from '../guard.js';
import { createWhoisClient, type WhoisClient } from './whois.js';

export interface WhoisServerGuard {
  /** A and AAAA of a name through the service's resolver (CheckContext.addresses) */
  addresses(name: string): Promise<ResolvedAddress[]>;
  /** the target guard's check of one address; throws TargetRefusedError */
  assertAllowed(address: string, targetForMessage: string): void;
}

function refusalReason(address: string): string {
  try {
    const verdict = classifyAddress(address);
    return verdict.special ? `${withArticle(verdict.range)} address` : 'an address the target rules refuse';
  } catch {
    return 'not an IP address';
  }
}

/** Throws ProbeError REFUSED naming the server when the target rules refuse `address`. */
function admit(guard: WhoisServerGuard, server: string, upstream: string, address: string): void {
  try {
    guard.assertAllowed(address, server);
  } catch (err) {
    if (isProbeError(err)) throw err;
    const where =
      address === server ? `is ${refusalReason(address)}` : `resolves to ${address}, ${refusalReason(address)}`;
    throw new ProbeError(
      'REFUSED',
      upstream,
      `WHOIS server ${upstream} ${where}; it was not contacted (private and internal addresses are refused)`,
      { cause: err },
    );
  }
}

/** The address to connect to for a WHOIS server name: every address it resolves to must pass. */
async function checkedAddress(guard: WhoisServerGuard, host: string, upstream: string): Promise<string> {
  let found: ResolvedAddress[];
  try {
    found = await guard.addresses(host);
  } catch (err) {
    if (isProbeError(err) && err.kind === 'ABORTED') throw err;
    const why = err instanceof Error ? err.message : String(err);
    const kind = isProbeError(err) ? err.kind : 'UNREACHABLE';
    throw new ProbeError(kind, upstream, `WHOIS server name ${host} could not be resolved (${why})`, { cause: err });
  }
  if (found.length === 0) {
    throw new ProbeError('UNREACHABLE', upstream, `WHOIS server name ${host} has no address (no A or AAAA record)`);
  }
  // One refused address refuses the server, as for a caller's target: which address a
  // resolver hands out next is the name owner's choice.
  for (const { address } of found) admit(guard, host, upstream, address);
  return (found.find((a) => a.family === 4) ?? found[0]!).address;
}

/**
 * A WHOIS client whose every server passes the target rules first (see the module comment).
 * `connect` is the socket factory (default net.connect), a test seam.
 */
export function createGuardedWhoisClient(
  guard: WhoisServerGuard,
  connect: (host: string, port: number) => Socket = (host, port) => net.connect({ host, port }),
): WhoisClient {
  const guardedConnect = (address: string, port: number): Socket => {
    const socket = connect(address, port);
    // Registered before the client's own 'connect' listener, so a refusal destroys the
    // socket before the query line is written.
    socket.once('connect', () => {
      const remote = socket.remoteAddress;
      try {
        if (remote === undefined) throw new Error('the socket has no remote address');
        guard.assertAllowed(remote, address);
      } catch (err) {
        const why = err instanceof Error ? err.message : String(err);
        socket.destroy(new Error(`connected to ${remote ?? 'an unknown address'}, which is refused: ${why}`));
      }
    });
    return socket;
  };
  return {
    async query(server, port, query, opts) {
      const upstream = `${server}:${port}`;
      // The client connects to an IP literal without resolving it: check it here.
      if (net.isIP(server) !== 0) admit(guard, server, upstream, server);
      const client = createWhoisClient({
        resolveHost: (host) => checkedAddress(guard, host, upstream),
        connect: guardedConnect,
      });
      return client.query(server, port, query, opts);
    },
  };
}
