/**
 * A loopback HTTPS server that answers by host name, for the mail policy checks (MTA-STS policies
 * at https://mta-sts.<domain>/.well-known/mta-sts.txt, BIMI logos): every lab host resolves to
 * 127.0.0.1 and this one server tells them apart by the Host header, with one certificate whose
 * names the test chooses (test/lab/pki.ts labLeafFor).
 */
import https from 'node:https';
import type { AddressInfo } from 'node:net';

export interface LabDocument {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface DocumentServer {
  readonly port: number;
  /** "host path" of every request, in order */
  readonly requests: string[];
  close(): Promise<void>;
}

/** `documents` maps "host/path" (no port) to the answer; anything else is a 404. */
export async function startDocumentServer(
  tls: { cert: string; key: string },
  documents: Record<string, LabDocument>,
): Promise<DocumentServer> {
  const requests: string[] = [];
  const server = https.createServer({ cert: tls.cert, key: tls.key }, (req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const path = (req.url ?? '/').split('?')[0];
    requests.push(`${host} ${path}`);
    const doc = documents[`${host}${path}`];
    res.writeHead(doc?.status ?? (doc ? 200 : 404), doc?.headers ?? { 'content-type': 'text/plain' });
    res.end(doc?.body ?? (doc ? '' : 'not found'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
