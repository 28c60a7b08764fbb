/**
 * What this side's TLS library (Node's OpenSSL) can offer: the cipher suites of each version and the
 * key-exchange groups, read from the ClientHello it writes into an in-memory stream (no packet leaves
 * the process). tls-rating offers these through the TLS prober and everything else through the
 * hand-built ClientHello. Decided once per process: the library does not change at run time.
 */
import tls from 'node:tls';
import { capturedClientHello } from './captured-hello.js';
import { readClientHello } from './client-hello.js';

export type OfferedVersion = 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';

/**
 * Everything OpenSSL knows (ALL:COMPLEMENTOFALL includes the NULL suites) at security level 0, so that
 * no local policy hides a suite the server may accept, plus every TLS 1.3 suite (OpenSSL enables the
 * CCM ones only when named; RFC 8446 §B.4). Not the anonymous suites: a handshake that completes with
 * one has no certificate, which the prober reports as a failure, so they are asked by hand-built
 * ClientHellos, whose ServerHello is enough.
 */
export const EVERYTHING_CIPHERS =
  'TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256:TLS_AES_128_GCM_SHA256:TLS_AES_128_CCM_SHA256:TLS_AES_128_CCM_8_SHA256:ALL:COMPLEMENTOFALL:!aNULL:@SECLEVEL=0';

/** The groups tls-rating may offer one at a time: its names → OpenSSL's (Node's `ecdhCurve`). */
export const GROUP_OPENSSL_NAMES: Readonly<Record<string, string>> = {
  x25519: 'X25519',
  secp256r1: 'P-256',
  secp384r1: 'P-384',
  secp521r1: 'P-521',
  x448: 'X448',
  ffdhe2048: 'ffdhe2048',
  ffdhe3072: 'ffdhe3072',
  ffdhe4096: 'ffdhe4096',
  ffdhe6144: 'ffdhe6144',
  ffdhe8192: 'ffdhe8192',
  // ML-KEM hybrid (draft-ietf-tls-ecdhe-mlkem): OpenSSL 3.5 (Node 24) has it, OpenSSL 3.0 (Node 20) not.
  X25519MLKEM768: 'X25519MLKEM768',
};

/** The groups' code points (RFC 8422 §5.1.1, RFC 7919 §2, draft-ietf-tls-ecdhe-mlkem). */
export const GROUP_CODES: Readonly<Record<string, number>> = {
  x25519: 0x001d,
  secp256r1: 0x0017,
  secp384r1: 0x0018,
  secp521r1: 0x0019,
  x448: 0x001e,
  ffdhe2048: 0x0100,
  ffdhe3072: 0x0101,
  ffdhe4096: 0x0102,
  ffdhe6144: 0x0103,
  ffdhe8192: 0x0104,
  X25519MLKEM768: 0x11ec,
};

export const POST_QUANTUM_GROUPS: readonly string[] = ['X25519MLKEM768'];

/** The suite code points this side offers when pinned to `version` (empty when it cannot offer it). */
async function offeredSuites(version: OfferedVersion): Promise<number[]> {
  const bytes = await capturedClientHello({ minVersion: version, maxVersion: version, ciphers: EVERYTHING_CIPHERS });
  if (bytes === null) return [];
  try {
    return readClientHello(bytes)?.cipherSuites ?? [];
  } catch {
    return [];
  }
}

/** Whether the library knows the group (Node throws "Failed to set ECDH curve" for one it does not). */
function canOfferGroup(opensslName: string): boolean {
  try {
    tls.createSecureContext({ ecdhCurve: opensslName });
    return true;
  } catch {
    return false;
  }
}

export interface LocalOffer {
  /** per version, the suites offered (TLS_EMPTY_RENEGOTIATION_INFO_SCSV included, as written) */
  readonly suites: Readonly<Record<OfferedVersion, ReadonlySet<number>>>;
  /** our group names the library can offer */
  readonly groups: readonly string[];
}

let offer: Promise<LocalOffer> | undefined;

export function localOffer(): Promise<LocalOffer> {
  offer ??= (async () => {
    const versions: OfferedVersion[] = ['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'];
    const lists = await Promise.all(versions.map(offeredSuites));
    const suites = Object.fromEntries(versions.map((v, i) => [v, new Set(lists[i])])) as Record<
      OfferedVersion,
      Set<number>
    >;
    const groups = Object.entries(GROUP_OPENSSL_NAMES)
      .filter(([, opensslName]) => canOfferGroup(opensslName))
      .map(([name]) => name);
    return { suites, groups };
  })();
  return offer;
}
