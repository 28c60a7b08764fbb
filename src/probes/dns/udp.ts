/**
 * The UDP leg of a DNS question (RFC 1035 §4.2.1): one fresh socket (so a fresh random source port,
 * RFC 5452 §9.2), the query sent once and re-sent once part-way through the budget, the first
 * packet that answers the question taken. Packets that do not match are ignored, so a spoofed or
 * stray packet cannot end the question (RFC 5452 §9.1).
 */
import dgram from 'node:dgram';
import { settleWithin } from '../../deadline.js';
import { matchResponse } from './message.js';
import type { ResponsePacket } from './message.js';
import type { Exchange } from './exchange.js';

export type UdpOutcome = { readonly kind: 'answer'; readonly packet: ResponsePacket } | { readonly kind: 'truncated' };

/** `resendAfterMs`: when to send the query a second time if nothing usable has come back. */
export function udpExchange(exchange: Exchange, resendAfterMs: number): Promise<UdpOutcome> {
  const { server, id, question, query, failures } = exchange;
  // the last reason a packet was set aside; reported if nothing usable comes before the deadline
  let unusable: string | undefined;
  return settleWithin<UdpOutcome>(
    {
      endsAt: exchange.deadline,
      signal: exchange.signal,
      onTimeout: () => (unusable === undefined ? failures.timeout() : failures.onlyUnusableAnswers(unusable)),
      onAbort: () => failures.aborted(),
    },
    (settle) => {
      let closed = false;
      let resendTimer: NodeJS.Timeout | undefined;
      const socket = dgram.createSocket(server.family === 6 ? 'udp6' : 'udp4');
      const send = (): void => {
        if (closed) return;
        try {
          socket.send(query, (error) => {
            if (error) settle.reject(failures.socket('udp', error));
          });
        } catch (error) {
          settle.reject(failures.socket('udp', error as NodeJS.ErrnoException));
        }
      };
      socket.on('error', (error) => settle.reject(failures.socket('udp', error)));
      socket.on('message', (bytes) => {
        const match = matchResponse(bytes, id, question, 'udp');
        if (match.kind === 'answer') settle.resolve({ kind: 'answer', packet: match.packet });
        else if (match.kind === 'truncated') settle.resolve({ kind: 'truncated' });
        else unusable = match.reason;
      });
      const release = (): void => {
        closed = true;
        clearTimeout(resendTimer);
        socket.close();
      };
      // A connected socket hears only from the server's address and port, and learns of an ICMP
      // port unreachable (ECONNREFUSED), which an unconnected one never does on Linux.
      try {
        // Node calls this back on failure too (ENETUNREACH, EHOSTUNREACH: no route to the server);
        // sending on the unconnected socket would then throw outside any handler.
        socket.connect(server.port, server.address, (error?: Error) => {
          if (error) {
            settle.reject(failures.socket('udp', error as NodeJS.ErrnoException));
            return;
          }
          send();
          if (!closed) resendTimer = setTimeout(send, resendAfterMs);
        });
      } catch (error) {
        // a port out of range throws here, before any packet: close the socket, then report
        release();
        throw error;
      }
      return release;
    },
  );
}
