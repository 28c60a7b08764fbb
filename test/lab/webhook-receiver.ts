/**
 * A webhook receiver on loopback over HTTPS, with the lab's certificate for good.lab.test (./pki.ts): it
 * keeps every POST it is sent (headers and body, in arrival order) and answers 204.
 */
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { labPki } from './pki.js';

export interface ReceivedHook {
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

export interface WebhookReceiver {
  readonly port: number;
  /** what was received, oldest first */
  readonly received: ReceivedHook[];
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const pki = await labPki();
  const received: ReceivedHook[] = [];
  const server = createServer({ key: pki.good.key, cert: pki.good.chain }, (request, response) => {
    let body = '';
    request.on('data', (d) => (body += d));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    received,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
