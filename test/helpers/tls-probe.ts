/** Shared by the TLS tests: certificate summaries from PEM, and handshakes against the lab. */
import { X509Certificate } from 'node:crypto';
import type { DetailedPeerCertificate } from 'node:tls';
import {
  summarizeCertificate,
  type CertificateEvidence,
  type PeerCertificateSummary,
} from '../../src/probes/tls/chain.js';

/** What the probe would report for this certificate, read from PEM instead of the wire. */
export function summaryFromPem(pem: string): PeerCertificateSummary {
  return summarizeCertificate(new X509Certificate(pem).toLegacyObject() as DetailedPeerCertificate);
}

export function evidence(
  chainPems: readonly string[],
  authorized: boolean,
  authorizationError: string | null = null,
): CertificateEvidence {
  return { peerChain: chainPems.map(summaryFromPem), authorized, authorizationError };
}

/** The error a promise rejected with; fails the test when it resolved. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject, it resolved');
}
