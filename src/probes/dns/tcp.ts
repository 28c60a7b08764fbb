/**
 * The TCP leg of a DNS question, used when the UDP answer came back truncated (RFC 1035 §4.2.2,
 * RFC 7766): each message is preceded by its length in two octets, so an answer is at most
 * 65,535 bytes and nothing beyond the one framed answer is read.
 */
import net from 'node:net';
import { settleWithin } from '../../deadline.js';
import { matchResponse } from './message.js';
import type { ResponsePacket } from './message.js';
import type { Exchange } from './exchange.js';

const LENGTH_PREFIX = 2;

/** Frames a DNS message for TCP. */
export function frameForTcp(message: Buffer): Buffer {
  const prefix = Buffer.alloc(LENGTH_PREFIX);
  prefix.writeUInt16BE(message.length);
  return Buffer.concat([prefix, message]);
}

/**
 * Over TCP nobody off-path can inject a packet, so an answer that does not decode or does not match
 * the question is the server's own doing: MALFORMED rather than ignored.
 */
export function tcpExchange(exchange: Exchange): Promise<ResponsePacket> {
  const { server, id, question, query, failures } = exchange;
  return settleWithin<ResponsePacket>(
    {
      endsAt: exchange.deadline,
      signal: exchange.signal,
      onTimeout: () => failures.timeout(),
      onAbort: () => failures.aborted(),
    },
    (settle) => {
      const chunks: Buffer[] = [];
      let received = 0;
      const socket = net.connect({ host: server.address, port: server.port, family: server.family });
      socket.on('connect', () => socket.write(frameForTcp(query)));
      socket.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        received += chunk.length;
        if (received < LENGTH_PREFIX) return;
        const buffered = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
        chunks.splice(0, chunks.length, buffered);
        const messageLength = buffered.readUInt16BE(0);
        if (received < LENGTH_PREFIX + messageLength) return;
        const message = buffered.subarray(LENGTH_PREFIX, LENGTH_PREFIX + messageLength);
        const match = matchResponse(message, id, question, 'tcp');
        if (match.kind === 'answer') settle.resolve(match.packet);
        else if (match.kind === 'truncated') settle.reject(failures.malformed('a truncated answer over TCP'));
        else settle.reject(failures.malformed(match.reason));
      });
      socket.on('error', (error) => settle.reject(failures.socket('tcp', error)));
      // after an answer has settled the exchange this is a no-op
      socket.on('close', () => settle.reject(failures.closedEarly()));
      return () => {
        socket.destroy();
      };
    },
  );
}
