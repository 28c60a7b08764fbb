/**
 * port-checker: how the outcome of one TCP connection attempt maps to a port
 * state (decisions §4), and the result object (api-v1.md).
 */

/** open = the handshake completed; closed = refused; filtered = no answer in time. */
export type PortState = 'open' | 'closed' | 'filtered';

export interface PortCheckerData {
  host: string;
  port: number;
  status: PortState;
  /** milliseconds until the verdict (for `filtered`, the time waited) */
  responseTime: number;
}

/**
 * The state a failed connect() error code means, or null when the code is no
 * verdict about the port (the check could not run: a ProbeError for the caller).
 *
 * - ECONNREFUSED: the host answered the SYN with a RST (or an ICMP port
 *   unreachable, which Linux reports the same way): closed.
 * - EHOSTUNREACH, ENETUNREACH: an ICMP destination-unreachable came back. Like
 *   nmap, we read that as a firewall in the way: filtered. (Linux reports
 *   "communication administratively prohibited", RFC 1812 §5.2.7.1, as EHOSTUNREACH.)
 * - ETIMEDOUT: the kernel gave up retrying the SYN: filtered, as our own time-out.
 */
export function portStateFromConnectError(code: string | undefined): PortState | null {
  switch (code) {
    case 'ECONNREFUSED':
      return 'closed';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'ETIMEDOUT':
      return 'filtered';
    default:
      return null;
  }
}

export function portCheckerData(
  host: string,
  port: number,
  outcome: { state: PortState; responseTimeMs: number },
): PortCheckerData {
  return { host, port, status: outcome.state, responseTime: outcome.responseTimeMs };
}
