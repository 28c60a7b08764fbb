/**
 * tls-rating against graded servers on loopback (docs/contract/grades.md): nginx servers (when nginx is
 * installed) and Node HTTPS servers (in process, one per case: the chain sent incomplete, AIA, the key
 * sizes, trust and name), configured to land on each grade, each expected letter and cap code asserted.
 * No local TLS library serves 3DES (neither Node's OpenSSL 3 nor Debian's, which
 * nginx links), so the C server is a Node server behind a front that answers a ClientHello offering 3DES
 * with a ServerHello naming it (test/lab/legacy-front.ts): the hand-built ClientHello probe reads no
 * further than that.
 *
 * Run alone (vitest.config.ts): a rating runs against its deadline and handshake bounds, which a machine
 * busy with other test files makes it miss.
 */
import { X509Certificate } from 'node:crypto';
import https from 'node:https';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type tls from 'node:tls';
import tlsModule from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { graphql } from '../../../../test/helpers/app.js';
import { rr, startDnsLab, type DnsLab } from '../../../../test/lab/dns-server.js';
import { startLegacyFront } from '../../../../test/lab/legacy-front.js';
import { nginxBinary } from '../../../../test/lab/nginx.js';
import { startNginxTls, type NginxTlsOptions } from '../../../../test/lab/nginx-tls-server.js';
import { createRatingPki, type RatingLeaf, type RatingPki } from '../../../../test/lab/rating-pki.js';

const HOST = 'rated.lab.test';
const OTHER = 'other.lab.test';

let pki: RatingPki;
let dns: DnsLab;
let app: TestApp;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  pki = createRatingPki();
  dns = await startDnsLab({ authoritative: false, records: [rr.a(HOST, '127.0.0.1')] });
  app = await createTestApp(
    { dns: { system: [`127.0.0.1:${dns.port}`], timeoutMs: 500 }, targets: { allow: ['127.0.0.0/8', '::1/128'] } },
    { connections: { tlsCa: pki.root, connectTimeoutMs: 1000, handshakeTimeoutMs: 1000 } },
  );
}, 30_000);

afterAll(async () => {
  for (const close of closers) await close();
  await app?.close();
  await dns?.close();
  pki?.close();
});

interface ServerOptions {
  leaf?: RatingLeaf;
  /** PEM to serve instead of the leaf's chain */
  certChain?: string;
  minVersion?: tls.SecureVersion;
  maxVersion?: tls.SecureVersion;
  ciphers?: string;
  ecdhCurve?: string;
  hsts?: string;
  /** Node servers pick by their own order unless told otherwise */
  honorCipherOrder?: boolean;
}

let rsa2048: RatingLeaf;
function goodLeaf(): RatingLeaf {
  rsa2048 ??= pki.leaf({ names: [HOST], key: 'rsa2048' });
  return rsa2048;
}

/** An HTTPS server on loopback answering GET / (with HSTS when asked). */
async function serve(options: ServerOptions = {}): Promise<number> {
  const leaf = options.leaf ?? goodLeaf();
  const server = https.createServer(
    {
      key: leaf.key,
      cert: options.certChain ?? leaf.chain,
      ...(options.minVersion ? { minVersion: options.minVersion } : {}),
      ...(options.maxVersion ? { maxVersion: options.maxVersion } : {}),
      ciphers: options.ciphers ?? 'ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES256-GCM-SHA384:@SECLEVEL=0',
      ecdhCurve: options.ecdhCurve ?? 'X25519:P-256:P-384',
      ...(options.honorCipherOrder !== undefined ? { honorCipherOrder: options.honorCipherOrder } : {}),
    },
    (_request, response) => {
      if (options.hsts) response.setHeader('strict-transport-security', options.hsts);
      response.end('rated\n');
    },
  );
  server.on('tlsClientError', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return (server.address() as AddressInfo).port;
}

const FIELDS = `host ip port durationMs partial handshakes
  protocols { version result note }
  cipherSuites { version name bits keyExchange authentication forwardSecrecy aead }
  preferred { version name } serverOrder groups postQuantum dhBits
  certificate { commonName subjectAlternativeNames issuer validFrom expiryDate daysRemaining fingerprint keyType keyBits signatureAlgorithm chainComplete status }
  hsts { present maxAge }
  grade { letter letterIgnoringTrust score protocolScore keyExchangeScore cipherScore caps { code cap reason } warnings { code reason } }
  ratingGuide
  mozilla { profile violations { modern intermediate old } }`;

async function rate(port: number, host = HOST) {
  const res = await graphql(app, `query ($d: String!, $p: Int) { tlsRating(domain: $d, port: $p) { ${FIELDS} } }`, {
    d: host,
    p: port,
  });
  expect(res.body.errors).toBeUndefined();
  return res.body.data.tlsRating;
}

function canOfferPostQuantum(): boolean {
  try {
    tlsModule.createSecureContext({ ecdhCurve: 'X25519MLKEM768' });
    return true;
  } catch {
    return false;
  }
}

/** A plain answer to the HSTS fetch. */
const answer = (_request: http.IncomingMessage, response: http.ServerResponse) => response.end('rated\n');

const codes = (data: { grade: { caps: { code: string }[] } }) => data.grade.caps.map((c) => c.code).sort();
const YEAR = 'max-age=31536000';

describe('tls-rating grades', () => {
  it('A+: TLS 1.2 and 1.3, ECDHE AEAD suites, RSA 2048, HSTS for a year', async () => {
    const port = await serve({ hsts: YEAR });
    const data = await rate(port);
    expect(data.grade).toMatchObject({ letter: 'A+', letterIgnoringTrust: 'A+', caps: [], warnings: [] });
    expect(data.grade).toMatchObject({ score: 93, protocolScore: 100, keyExchangeScore: 90, cipherScore: 90 });
    expect(data.protocols).toEqual([
      { version: 'SSLv3', result: 'not-supported', note: null },
      { version: 'TLSv1', result: 'not-supported', note: null },
      { version: 'TLSv1.1', result: 'not-supported', note: null },
      { version: 'TLSv1.2', result: 'supported', note: null },
      { version: 'TLSv1.3', result: 'supported', note: null },
    ]);
    const tls12 = data.cipherSuites.filter((s: { version: string }) => s.version === 'TLSv1.2');
    expect(tls12.map((s: { name: string }) => s.name).sort()).toEqual([
      'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
      'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384',
    ]);
    expect(tls12[0]).toMatchObject({ keyExchange: 'ECDHE', authentication: 'RSA', forwardSecrecy: true, aead: true });
    expect(data.cipherSuites.filter((s: { version: string }) => s.version === 'TLSv1.3').length).toBeGreaterThanOrEqual(
      3,
    );
    expect(data.groups).toEqual(['x25519', 'secp256r1', 'secp384r1']);
    // the leaf under ssl-checker's names (so monitors read both alike), and its SHA-256 fingerprint
    const ssl = await graphql(
      app,
      `query ($d: String!, $p: Int) { sslChecker(domain: $d, port: $p) { commonName subjectAlternativeNames issuer validFrom expiryDate daysRemaining } }`,
      { d: HOST, p: port },
    );
    expect(ssl.body.data.sslChecker.expiryDate).toBe(
      new Date(new X509Certificate(goodLeaf().cert).validTo).toISOString(),
    );
    expect(data.certificate).toEqual({
      ...ssl.body.data.sslChecker,
      fingerprint: new X509Certificate(goodLeaf().cert).fingerprint256,
      keyType: 'RSA',
      keyBits: 2048,
      signatureAlgorithm: 'sha256WithRSAEncryption',
      chainComplete: true,
      status: 'valid',
    });
    expect(data.hsts).toEqual({ present: true, maxAge: 31536000 });
    expect(data).toMatchObject({ host: HOST, ip: '127.0.0.1', partial: false, ratingGuide: '2009r' });
    expect(data.mozilla.profile).toBe('intermediate');
    // 5 for the versions, one per family of suites, each suite of the accepted family, the TLS 1.3
    // suites, the two reversed lists and one hello per group: far below one per candidate suite
    expect(data.handshakes).toBeLessThan(60);
    // grades.md: null where this side cannot offer X25519MLKEM768 (OpenSSL before 3.5, so Node 20 and 22)
    expect(data.postQuantum).toBe(canOfferPostQuantum() ? false : null);
  });

  it('A: the same without HSTS', async () => {
    const data = await rate(await serve());
    expect(data.grade).toMatchObject({ letter: 'A', caps: [], warnings: [] });
    expect(data.hsts).toEqual({ present: false, maxAge: null });
  });

  it('A-: no TLS 1.3 (warning no-tls13), and a short HSTS (hsts-short)', async () => {
    const noTls13 = await rate(await serve({ maxVersion: 'TLSv1.2', hsts: YEAR }));
    expect(noTls13.grade).toMatchObject({ letter: 'A-', caps: [] });
    expect(noTls13.grade.warnings.map((w: { code: string }) => w.code)).toEqual(['no-tls13']);
    const shortHsts = await rate(await serve({ hsts: 'max-age=86400' }));
    expect(shortHsts.grade).toMatchObject({ letter: 'A-', caps: [] });
    expect(shortHsts.grade.warnings.map((w: { code: string }) => w.code)).toEqual(['hsts-short']);
  });

  it('B: TLS 1.0 and 1.1 enabled', async () => {
    const data = await rate(
      await serve({ minVersion: 'TLSv1', ciphers: 'ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-SHA:@SECLEVEL=0' }),
    );
    expect(data.grade.letter).toBe('B');
    expect(codes(data)).toEqual(['tls10', 'tls11']);
    expect(data.protocols.find((p: { version: string }) => p.version === 'TLSv1').result).toBe('supported');
    expect(data.cipherSuites).toContainEqual(
      expect.objectContaining({ version: 'TLSv1', name: 'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA' }),
    );
  });

  it('B: no forward secrecy (RSA key transport only)', async () => {
    const data = await rate(await serve({ maxVersion: 'TLSv1.2', ciphers: 'AES128-GCM-SHA256:AES256-GCM-SHA384' }));
    expect(data.grade.letter).toBe('B');
    expect(codes(data)).toEqual(['no-forward-secrecy']);
    expect(data.groups).toEqual([]);
  });

  it('B: no AEAD suite', async () => {
    const data = await rate(
      await serve({ maxVersion: 'TLSv1.2', ciphers: 'ECDHE-RSA-AES128-SHA:ECDHE-RSA-AES256-SHA384' }),
    );
    expect(data.grade.letter).toBe('B');
    expect(codes(data)).toEqual(['no-aead']);
  });

  it('B: a chain sent incomplete and completed through AIA', async () => {
    const aia = http.createServer((_request, response) => {
      response.setHeader('content-type', 'application/pkix-cert');
      response.end(pki.intermediateDer);
    });
    await new Promise<void>((resolve) => aia.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => aia.close(() => resolve())));
    const leaf = pki.leaf({
      names: [HOST],
      key: 'rsa2048',
      aiaUrl: `http://127.0.0.1:${(aia.address() as AddressInfo).port}/intermediate.der`,
    });
    const data = await rate(await serve({ leaf, certChain: leaf.cert, hsts: YEAR }));
    expect(data.certificate).toMatchObject({ chainComplete: false, status: 'valid' });
    expect(data.grade.letter).toBe('B');
    expect(codes(data)).toEqual(['incomplete-chain']);
  });

  it('T: an incomplete chain without an AIA URL', async () => {
    const leaf = goodLeaf();
    const data = await rate(await serve({ certChain: leaf.cert }));
    expect(data.certificate).toMatchObject({ chainComplete: false, status: 'untrusted' });
    expect(data.grade).toMatchObject({ letter: 'T', letterIgnoringTrust: 'B' });
  });

  it('B: a 1024-bit RSA key from a trusted CA passes the gate and is capped by the key exchange', async () => {
    const leaf = pki.leaf({ names: [HOST], key: 'rsa1024' });
    const data = await rate(await serve({ leaf }));
    expect(data.certificate).toMatchObject({ keyType: 'RSA', keyBits: 1024, status: 'valid' });
    expect(data.grade).toMatchObject({ letter: 'B', keyExchangeScore: 80 });
    expect(codes(data)).toEqual(['key-exchange-below-2048']);
  });

  it('C: 3DES with TLS 1.2, found by the hand-built ClientHello', async () => {
    const backend = await serve({ hsts: YEAR });
    const front = await startLegacyFront({ backendPort: backend, suites: [0x000a], versions: [0x0303] });
    closers.push(() => front.close());
    const data = await rate(front.port);
    expect(data.cipherSuites).toContainEqual({
      version: 'TLSv1.2',
      name: 'TLS_RSA_WITH_3DES_EDE_CBC_SHA',
      bits: 112,
      keyExchange: 'RSA',
      authentication: 'RSA',
      forwardSecrecy: false,
      aead: false,
    });
    expect(data.grade.letter).toBe('C');
    expect(codes(data)).toEqual(['sweet32']);
    // Mozilla's "old" profile still lists TLS_RSA_WITH_3DES_EDE_CBC_SHA
    expect(data.mozilla.profile).toBe('old');
  });

  it('F: a NULL suite', async () => {
    const data = await rate(
      await serve({
        maxVersion: 'TLSv1.2',
        ciphers: 'ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-NULL-SHA:@SECLEVEL=0',
      }),
    );
    expect(data.cipherSuites).toContainEqual(expect.objectContaining({ name: 'TLS_ECDHE_RSA_WITH_NULL_SHA', bits: 0 }));
    expect(data.grade.letter).toBe('F');
    expect(codes(data)).toEqual(['weak-cipher']);
  });

  it('F: a key exchange under 1024 bits (a 512-bit RSA key)', async () => {
    const leaf = pki.leaf({ names: [HOST], key: 'rsa512' });
    const data = await rate(await serve({ leaf }));
    expect(data.certificate).toMatchObject({ keyType: 'RSA', keyBits: 512, status: 'valid' });
    expect(data.grade).toMatchObject({ letter: 'F', keyExchangeScore: 40 });
    expect(codes(data)).toEqual(['weak-key-exchange']);
  });

  it('T: a self-signed certificate; letterIgnoringTrust keeps the configuration grade', async () => {
    const data = await rate(await serve({ leaf: pki.selfSigned([HOST]) }));
    expect(data.certificate.status).toBe('untrusted');
    expect(data.grade).toMatchObject({ letter: 'T', letterIgnoringTrust: 'A' });
  });

  it('M: a certificate for another name', async () => {
    const data = await rate(await serve({ leaf: pki.leaf({ names: [OTHER], key: 'rsa2048' }) }));
    expect(data.certificate.status).toBe('hostname-mismatch');
    expect(data.grade).toMatchObject({ letter: 'M', letterIgnoringTrust: 'A' });
  });
});

/** nginx with the good RSA 2048 leaf; the server is closed after the file's tests. */
async function nginx(options: Omit<NginxTlsOptions, 'chain' | 'key'>): Promise<number> {
  const server = await startNginxTls({ chain: goodLeaf().chain, key: goodLeaf().key, ...options });
  if (server === null) throw new Error('nginx is not installed');
  closers.push(() => server.close());
  return server.port;
}

describe.skipIf(nginxBinary() === null)('tls-rating grades of nginx servers', () => {
  it('A+: TLS 1.2 and 1.3, ECDHE AEAD suites, HSTS for two years', async () => {
    const data = await rate(
      await nginx({
        protocols: 'TLSv1.2 TLSv1.3',
        ciphers: 'ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-RSA-CHACHA20-POLY1305',
        curves: 'X25519:prime256v1:secp384r1',
        hsts: 'max-age=63072000',
      }),
    );
    expect(data.grade).toMatchObject({ letter: 'A+', caps: [], warnings: [] });
    expect(data.cipherSuites.filter((s: { version: string }) => s.version === 'TLSv1.2')).toHaveLength(3);
    expect(data.groups).toEqual(['x25519', 'secp256r1', 'secp384r1']);
    expect(data.mozilla.profile).toBe('intermediate');
    expect(data.serverOrder).toBe(true);
  });

  it('B: TLS 1.0 enabled, DHE with a 2048-bit group', async () => {
    const data = await rate(
      await nginx({
        protocols: 'TLSv1 TLSv1.1 TLSv1.2 TLSv1.3',
        // OpenSSL 3 offers TLS 1.0 and 1.1 (SHA-1 signatures) only at security level 0
        ciphers:
          'ECDHE-RSA-AES128-GCM-SHA256:DHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-SHA:DHE-RSA-AES256-SHA:@SECLEVEL=0',
        dhGroup: 'ffdhe2048',
        hsts: 'max-age=63072000',
      }),
    );
    expect(data.grade.letter).toBe('B');
    expect(codes(data)).toEqual(['tls10', 'tls11']);
    expect(data.dhBits).toBe(2048);
    expect(data.cipherSuites).toContainEqual(
      expect.objectContaining({ version: 'TLSv1', name: 'TLS_DHE_RSA_WITH_AES_256_CBC_SHA', keyExchange: 'DHE' }),
    );
    // even Mozilla's "old" profile lists no DHE suite with SHA-1
    expect(data.mozilla.profile).toBe('none');
    expect(data.mozilla.violations.old).toContain('TLS_DHE_RSA_WITH_AES_256_CBC_SHA accepted');
  });

  it('B: no forward secrecy, and A- without TLS 1.3', async () => {
    const noFs = await rate(await nginx({ protocols: 'TLSv1.2', ciphers: 'AES128-GCM-SHA256:AES256-SHA256' }));
    expect(noFs.grade.letter).toBe('B');
    expect(codes(noFs)).toEqual(['no-forward-secrecy']);
    const noTls13 = await rate(
      await nginx({ protocols: 'TLSv1.2', ciphers: 'ECDHE-RSA-AES256-GCM-SHA384', hsts: 'max-age=63072000' }),
    );
    expect(noTls13.grade).toMatchObject({ letter: 'A-', caps: [] });
  });

  it('F: anonymous suites accepted (asked by hand-built ClientHellos)', async () => {
    const data = await rate(
      await nginx({ protocols: 'TLSv1.2', ciphers: 'ECDHE-RSA-AES128-GCM-SHA256:AECDH-AES128-SHA:@SECLEVEL=0' }),
    );
    expect(data.cipherSuites).toContainEqual(
      expect.objectContaining({
        name: 'TLS_ECDH_anon_WITH_AES_128_CBC_SHA',
        keyExchange: 'anonymous',
        authentication: 'none',
      }),
    );
    // grades.md step 2: an anonymous suite scores the key exchange 0, and so the score 0
    expect(data.grade).toMatchObject({ letter: 'F', keyExchangeScore: 0, score: 0 });
    expect(codes(data)).toEqual(['anonymous', 'weak-key-exchange']);
  });

  it('F: a NULL suite accepted', async () => {
    const data = await rate(
      await nginx({ protocols: 'TLSv1.2', ciphers: 'ECDHE-RSA-AES128-GCM-SHA256:NULL-SHA256:@SECLEVEL=0' }),
    );
    expect(data.grade.letter).toBe('F');
    expect(codes(data)).toEqual(['weak-cipher']);
  });
});

describe('tls-rating enumeration', () => {
  it('tells server order from client order', async () => {
    const ciphers = 'ECDHE-RSA-AES256-GCM-SHA384:ECDHE-RSA-AES128-GCM-SHA256:@SECLEVEL=0';
    const clientOrder = await rate(await serve({ maxVersion: 'TLSv1.2', ciphers, honorCipherOrder: false }));
    expect(clientOrder.serverOrder).toBe(false);
    const server = https.createServer(
      {
        key: goodLeaf().key,
        cert: goodLeaf().chain,
        maxVersion: 'TLSv1.2',
        ciphers,
        honorCipherOrder: true,
      },
      answer,
    );
    server.on('tlsClientError', () => {});
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const serverOrder = await rate((server.address() as AddressInfo).port);
    expect(serverOrder.serverOrder).toBe(true);
    expect(serverOrder.preferred).toEqual([{ version: 'TLSv1.2', name: 'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384' }]);
  });

  it.skipIf(!canOfferPostQuantum())(
    'postQuantum: X25519MLKEM768 accepted (where this side can offer it: Node 24)',
    async () => {
      const data = await rate(await serve({ ecdhCurve: 'X25519MLKEM768:X25519', hsts: YEAR }));
      expect(data.groups).toEqual(['x25519', 'X25519MLKEM768']);
      expect(data.postQuantum).toBe(true);
      expect(data.grade.letter).toBe('A+');
    },
  );

  it('reads the DH group of DHE suites', async () => {
    const server = https.createServer(
      {
        key: goodLeaf().key,
        cert: goodLeaf().chain,
        maxVersion: 'TLSv1.2',
        ciphers: 'ECDHE-RSA-AES128-GCM-SHA256:DHE-RSA-AES128-GCM-SHA256:DHE-RSA-AES256-GCM-SHA384',
        dhparam: 'auto',
      },
      answer,
    );
    server.on('tlsClientError', () => {});
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const data = await rate((server.address() as AddressInfo).port);
    expect(data.cipherSuites.map((s: { name: string }) => s.name).sort()).toEqual([
      'TLS_DHE_RSA_WITH_AES_128_GCM_SHA256',
      'TLS_DHE_RSA_WITH_AES_256_GCM_SHA384',
      'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
    ]);
    expect(data.dhBits).toBeGreaterThanOrEqual(2048);
    expect(data.grade.keyExchangeScore).toBe(90);
  });

  it('stops at tls.ratingHandshakes and grades what it learnt, saying it is partial', async () => {
    const small = await createTestApp(
      {
        dns: { system: [`127.0.0.1:${dns.port}`], timeoutMs: 500 },
        targets: { allow: ['127.0.0.0/8'] },
        tls: { ratingHandshakes: 8 },
      },
      { connections: { tlsCa: pki.root, connectTimeoutMs: 1000, handshakeTimeoutMs: 1000 } },
    );
    try {
      const port = await serve();
      const res = await graphql(
        small,
        `query ($d: String!, $p: Int) { tlsRating(domain: $d, port: $p) { partial handshakes grade { letter } } }`,
        {
          d: HOST,
          p: port,
        },
      );
      expect(res.body.data.tlsRating).toEqual({ partial: true, handshakes: 8, grade: { letter: expect.any(String) } });
    } finally {
      await small.close();
    }
  });

  it('answers within its deadline with what it learnt, partial, from a server too slow to finish', async () => {
    // compositeTimeoutMs 3 s: the rating stops 1 s before the request's bound
    const hurried = await createTestApp(
      {
        dns: { system: [`127.0.0.1:${dns.port}`], timeoutMs: 500 },
        targets: { allow: ['127.0.0.0/8'] },
        server: { compositeTimeoutMs: 3000 },
      },
      { connections: { tlsCa: pki.root, connectTimeoutMs: 1000, handshakeTimeoutMs: 1000 } },
    );
    try {
      const front = await startLegacyFront({ backendPort: await serve(), suites: [], versions: [], delayMs: 400 });
      closers.push(() => front.close());
      const started = performance.now();
      const res = await graphql(
        hurried,
        `query ($d: String!, $p: Int) { tlsRating(domain: $d, port: $p) { partial protocols { version result } grade { letter } } }`,
        { d: HOST, p: front.port },
      );
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.tlsRating.partial).toBe(true);
      expect(res.body.data.tlsRating.protocols).toContainEqual({ version: 'TLSv1.3', result: 'supported' });
      expect(performance.now() - started).toBeLessThan(3000);
    } finally {
      await hurried.close();
    }
  });

  it('refuses a loopback target without targets.allow (a 400 before any handshake)', async () => {
    const strict = await createTestApp(
      { dns: { system: [`127.0.0.1:${dns.port}`], timeoutMs: 500 } },
      { connections: { tlsCa: pki.root, connectTimeoutMs: 1000, handshakeTimeoutMs: 1000 } },
    );
    try {
      const res = await strict.get(`/api/v1/tls-rating?domain=${HOST}`);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toMatch(/loopback address; checks of private/);
    } finally {
      await strict.close();
    }
  });

  it('a closed port is a 502, not a grade', async () => {
    const port = await serve();
    await closers.pop()!();
    const res = await graphql(app, `query ($d: String!, $p: Int) { tlsRating(domain: $d, port: $p) { host } }`, {
      d: HOST,
      p: port,
    });
    expect(res.body.errors?.[0]?.extensions?.code).toBe('UPSTREAM_FAILED');
  });

  it('the REST route answers with the same data', async () => {
    const port = await serve({ hsts: YEAR });
    const res = await app.get(`/api/v1/tls-rating?domain=${encodeURIComponent(`https://${HOST}:${port}/`)}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { grade: { letter: string }; port: number } };
    expect(body.data.port).toBe(port);
    expect(body.data.grade.letter).toBe('A+');
  });
});
