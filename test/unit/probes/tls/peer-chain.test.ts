import { X509Certificate } from 'node:crypto';
import tls from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { summarizePeerChain, summarizeX509Chain } from '../../../../src/probes/tls/chain.js';
import { peerChain, trustAnchorsFor } from '../../../../src/probes/tls/peer-chain.js';
import { LAB_HOST, labPki } from '../../../lab/pki.js';
import { startTlsServer } from '../../../lab/tls-server.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

type Ca = string | string[] | undefined;

/** A finished handshake with a lab server presenting `chain` (PEM, leaf first as sent). */
async function handshake(port: number, ca: Ca): Promise<tls.TLSSocket> {
  const socket = tls.connect({
    host: '127.0.0.1',
    port,
    servername: LAB_HOST,
    rejectUnauthorized: false,
    ...(ca !== undefined ? { ca } : {}),
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('secureConnect', resolve);
    socket.once('error', reject);
  });
  cleanups.push(async () => {
    socket.destroy();
  });
  return socket;
}

async function serving(chain: string, key: string): Promise<number> {
  const server = await startTlsServer({ cert: chain, key });
  cleanups.push(() => server.close());
  return server.port;
}

describe('peerChain: the chain getPeerCertificate(true) gives, without its trust-store lookup', async () => {
  const pki = await labPki();
  const { good, root, intermediate, selfSigned, wrongHost } = pki;
  const servers: [string, string, string][] = [
    ['leaf and intermediate', good.chain, good.key],
    ['the leaf alone (intermediate missing)', good.cert, good.key],
    ['leaf, intermediate, root', good.chain + root.cert, good.key],
    ['an unrelated certificate among them', good.cert + wrongHost.cert + intermediate.cert, good.key],
    ['the intermediate twice', good.chain + intermediate.cert, good.key],
    ['a self-signed leaf', selfSigned.chain, selfSigned.key],
  ];
  const cas: [string, Ca][] = [
    ['the lab root', root.cert],
    ['root and intermediate', [root.cert, intermediate.cert]],
    ["Node's default store", undefined],
  ];

  for (const [serverName, chain, key] of servers) {
    for (const [caName, ca] of cas) {
      it(`${serverName}, trusting ${caName}`, async () => {
        const port = await serving(chain, key);
        // two handshakes: taking the X509Certificates consumes the socket's chain
        const expected = summarizePeerChain((await handshake(port, ca)).getPeerCertificate(true));
        const actual = summarizeX509Chain(peerChain(await handshake(port, ca), ca));
        expect(actual.map((c) => c.subject.CN)).toEqual(expected.map((c) => c.subject.CN));
        expect(actual).toEqual(expected);
      });
    }
  }

  it("walks a chain sent out of order to its end (Node's own walk stops one early there)", async () => {
    const port = await serving(good.cert + root.cert + intermediate.cert, good.key);
    const names = [LAB_HOST, 'Netdiag Lab Intermediate CA', 'Netdiag Lab Root CA'];
    for (const [, ca] of cas) {
      const chain = summarizeX509Chain(peerChain(await handshake(port, ca), ca));
      expect(chain.map((c) => c.subject.CN)).toEqual(names);
    }
    // Node's walk, for the record: without the root among the anchors it ends at the intermediate
    const nodes = summarizePeerChain((await handshake(port, undefined)).getPeerCertificate(true));
    expect(nodes.map((c) => c.subject.CN)).toEqual(names.slice(0, 2));
  });

  it('completes a chain whose intermediate the server left out from the trusted anchors', async () => {
    const port = await serving(good.cert, good.key);
    const ca = [root.cert, intermediate.cert];
    const chain = summarizeX509Chain(peerChain(await handshake(port, ca), ca));
    expect(chain.map((c) => c.subject.CN)).toEqual([LAB_HOST, 'Netdiag Lab Intermediate CA', 'Netdiag Lab Root CA']);
  });
});

describe("trust anchors of Node's default store", () => {
  it('index the bundled roots by subject (a self-issued root finds an issuer: itself or its twin)', () => {
    const anchors = trustAnchorsFor(undefined);
    const someRoots = tls.rootCertificates.slice(0, 20).map((pem) => new X509Certificate(pem));
    for (const rootCert of someRoots) {
      const issuer = anchors.issuerOf(rootCert, Date.now());
      expect(issuer).toBeDefined();
      expect(rootCert.checkIssued(issuer!)).toBe(true);
    }
  });

  it('return nothing for an issuer they do not hold', async () => {
    const { intermediate } = await labPki();
    expect(trustAnchorsFor(undefined).issuerOf(new X509Certificate(intermediate.cert), Date.now())).toBeUndefined();
  });
});
