/** What this side's TLS library offers, read from the ClientHello it writes into memory. */
import tls from 'node:tls';
import { describe, expect, it } from 'vitest';
import { localOffer } from '../../../../src/probes/tls/local-offer.js';

describe('localOffer', () => {
  it('lists the suites of each version and the groups the library knows', async () => {
    const offer = await localOffer();
    expect(offer.suites['TLSv1.2'].has(0xc02f)).toBe(true); // TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256
    expect(offer.suites['TLSv1.3'].has(0x1301)).toBe(true); // TLS_AES_128_GCM_SHA256
    // GCM suites are TLS 1.2's (RFC 5288): a client pinned to TLS 1.0 does not offer them
    expect(offer.suites.TLSv1.has(0xc02f)).toBe(false);
    expect(offer.groups).toEqual(expect.arrayContaining(['x25519', 'secp256r1', 'secp384r1', 'ffdhe2048']));
  });

  it('offers X25519MLKEM768 exactly where the library can (OpenSSL 3.5, Node 24)', async () => {
    let known = true;
    try {
      tls.createSecureContext({ ecdhCurve: 'X25519MLKEM768' });
    } catch {
      known = false;
    }
    expect((await localOffer()).groups.includes('X25519MLKEM768')).toBe(known);
  });
});
