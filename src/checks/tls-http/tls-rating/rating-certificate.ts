/**
 * The certificate part of tls-rating (docs/contract/grades.md step 1): a chain the server sent
 * incomplete is completed through its caIssuers URLs as browsers and SSL Labs do, and the certificate
 * of the main handshake is judged on the completed chain.
 */
import { X509Certificate } from 'node:crypto';
import type { CheckContext } from '../../../loaders/context.js';
import { NetdiagError } from '../../../errors.js';
import { ProbeError } from '../../../probes/errors.js';
import type { TlsHandshakeResult } from '../../../probes/tls/prober.js';
import { hostnameVerdict, leafIdentity, sslStatus } from '../shared/certificate.js';
import type { ObservedCertificate } from './rating.js';

/** grades.md step 1: at most 3 AIA fetches. */
const MAX_AIA_FETCHES = 3;
/** A certificate is a few KiB; a bigger answer is not one. */
const AIA_MAX_BYTES = 64 * 1024;

/** OpenSSL's verify codes for a chain the server sent without the issuers it needs. */
export const MISSING_ISSUER: ReadonlySet<string> = new Set([
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
]);

/** grades.md step 1: the caIssuers URLs of a certificate's Authority Information Access (RFC 5280 §4.2.2.1). */
function caIssuersUrls(der: Buffer): URL[] {
  const access = new X509Certificate(der).infoAccess ?? '';
  return access
    .split('\n')
    .filter((line) => line.startsWith('CA Issuers - URI:'))
    .flatMap((line) => {
      try {
        const url = new URL(line.slice('CA Issuers - URI:'.length).trim());
        return url.protocol === 'http:' || url.protocol === 'https:' ? [url] : [];
      } catch {
        return [];
      }
    });
}

/** A fetched issuer: DER (RFC 5280 §4.2.2.1 says DER; some CAs serve PEM). */
function certificateFromBody(body: Buffer): Buffer | null {
  try {
    return new X509Certificate(body).raw;
  } catch {
    return null;
  }
}

/**
 * Completes a chain the server sent incomplete through the caIssuers URLs (through the guarded fetcher,
 * at most MAX_AIA_FETCHES), as browsers and SSL Labs do: whether it then reaches a trust anchor.
 */
export async function trustedThroughAia(ctx: CheckContext, sent: readonly Buffer[], now: Date): Promise<boolean> {
  const chain = [...sent];
  for (let fetches = 0; fetches < MAX_AIA_FETCHES; ) {
    const url = caIssuersUrls(chain[chain.length - 1]!)[0];
    if (url === undefined) return false;
    fetches++;
    // An issuer that cannot be had — no answer, a name without addresses, an address the target rules
    // refuse — leaves the chain incomplete (grades.md step 1: without a usable AIA URL it is T), never
    // the rating's failure; only the request ending (or a bug) is passed on.
    const response = await ctx.fetchDocument(url, { maxBytes: AIA_MAX_BYTES }).catch((error: unknown) => {
      if (error instanceof NetdiagError && !(error instanceof ProbeError && error.kind === 'ABORTED')) return null;
      throw error;
    });
    const issuer = response?.body && response.final.statusCode === 200 ? certificateFromBody(response.body) : null;
    if (issuer === null) return false;
    chain.push(issuer);
    if (ctx.verifyChain(chain, now).trusted) return true;
  }
  return false;
}

export function observedCertificate(
  domain: string,
  main: TlsHandshakeResult,
  aiaTrusted: boolean,
  now: Date,
): ObservedCertificate {
  const leaf = main.peerChain[0]!;
  const name = hostnameVerdict(domain, leaf);
  const trusted = main.authorized || aiaTrusted;
  const status = sslStatus(
    { peerChain: main.peerChain, authorized: trusted, authorizationError: trusted ? null : main.authorizationError },
    name,
    now,
  );
  return {
    leafDer: main.leafDer,
    identity: {
      fingerprint: new X509Certificate(leaf.der).fingerprint256,
      ...leafIdentity(leaf, now),
    },
    // A trust anchor's own signature is not checked by anyone (RFC 5280 §6.1): only what it signed.
    sentDers: main.peerChain.filter((c, i) => i === 0 || !isSelfIssued(c.der)).map((c) => c.der),
    hostnameMatch: name.match,
    status,
    chainComplete: main.authorized || !MISSING_ISSUER.has(main.authorizationError ?? ''),
  };
}

function isSelfIssued(der: Buffer): boolean {
  const certificate = new X509Certificate(der);
  return certificate.subject === certificate.issuer;
}
