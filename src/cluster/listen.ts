/**
 * Opening the primary's listeners (the API port and the metrics port), and saying in an operator's
 * words why one cannot be opened: the usual causes (another process on the port, a host that is not
 * this machine's, a privileged port) are operator errors, named without a stack trace.
 */
import type { AddressInfo, Server } from 'node:net';

const LISTEN_ERRORS: Record<string, string> = {
  EADDRINUSE: 'the address is already in use (another process listens there; choose another port)',
  EADDRNOTAVAIL: 'the address is not one of this machine',
  EACCES: 'permission denied (ports below 1024 need privileges; choose another port)',
};

export class ListenError extends Error {
  constructor(
    readonly address: string,
    readonly code: string | undefined,
    reason: string,
  ) {
    super(`cannot listen on ${address}: ${reason}`);
  }
}

/** `host:port`, an IPv6 host in brackets. */
export function addressOf(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** Listens; rejects with a ListenError naming the address, the cause and the setting to change. */
export function listenOn(server: Server, host: string, port: number, settings: string): Promise<AddressInfo> {
  return new Promise<AddressInfo>((resolve, reject) => {
    const refused = (e: NodeJS.ErrnoException) => {
      const reason = LISTEN_ERRORS[e.code ?? ''] ?? e.message;
      reject(new ListenError(addressOf(host, port), e.code, `${reason}; see ${settings}`));
    };
    server.once('error', refused);
    server.listen(port, host, () => {
      server.off('error', refused);
      resolve(server.address() as AddressInfo);
    });
  });
}
