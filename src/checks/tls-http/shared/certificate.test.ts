import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  certificateDateToIso,
  dnsAndIpAltNames,
  parseSubjectAltName,
  sha256Fingerprint,
  summarizePeerChain,
} from '../../../probes/tls/chain.js';
import { hostnameVerdict, sslCheckerData, sslStatus, tlsCertificateBlock } from './certificate.js';
import { LAB_HOST, WRONG_HOST, labPki } from '../../../../test/lab/pki.js';
import { evidence, summaryFromPem } from '../../../../test/helpers/tls-probe.js';

const DAY_MS = 86_400_000;

describe('subjectAltName parsing', () => {
  it('keeps DNS and IP entries without their prefixes, IPv6 in RFC 5952 form', () => {
    const text =
      'DNS:a.example, IP Address:192.0.2.1, IP Address:2001:DB8:0:0:0:0:0:1, email:x@a.example, URI:https://a.example/';
    expect(dnsAndIpAltNames(text)).toEqual(['a.example', '192.0.2.1', '2001:db8::1']);
    expect(dnsAndIpAltNames(null)).toEqual([]);
  });

  it('reads quoted values, so a comma inside a name cannot forge an entry', () => {
    const text = 'DNS:"evil.example\\u002c DNS:bank.example", DNS:ok.example';
    expect(parseSubjectAltName(text)).toEqual([
      { type: 'DNS', value: 'evil.example, DNS:bank.example' },
      { type: 'DNS', value: 'ok.example' },
    ]);
  });
});

describe('dates', () => {
  it('turns Node certificate dates into ISO 8601 with milliseconds', () => {
    expect(certificateDateToIso('Mar  1 07:08:09 2026 GMT')).toBe('2026-03-01T07:08:09.000Z');
    expect(() => certificateDateToIso('not a date')).toThrow(RangeError);
  });
});

describe('ssl-checker data', () => {
  it('describes a valid certificate, chain leaf first', async () => {
    const pki = await labPki();
    const now = new Date(pki.issuedAt.getTime() + 1000);
    const data = sslCheckerData(LAB_HOST, evidence([pki.good.cert, pki.intermediate.cert, pki.root.cert], true), now);
    expect(data).toMatchObject({
      domain: LAB_HOST,
      status: 'valid',
      commonName: LAB_HOST,
      subjectAlternativeNames: [LAB_HOST, '*.lab.test', '127.0.0.1', '::1'],
      issuer: 'Netdiag Lab Intermediate CA',
      signatureAlgorithm: 'ecdsa-with-SHA256',
      daysRemaining: 89,
    });
    expect(data.expiryDate).toBe(new Date(new X509Certificate(pki.good.cert).validTo).toISOString());
    expect(data.validFrom).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/);
    expect(data.chain.map((c) => [c.commonName, c.issuer])).toEqual([
      [LAB_HOST, 'Netdiag Lab Intermediate CA'],
      ['Netdiag Lab Intermediate CA', 'Netdiag Lab Root CA'],
      ['Netdiag Lab Root CA', 'Netdiag Lab Root CA'],
    ]);
  });

  it('counts days remaining down to negative once expired', async () => {
    const pki = await labPki();
    const data = sslCheckerData(LAB_HOST, evidence([pki.expired.cert], false, 'CERT_HAS_EXPIRED'), pki.issuedAt);
    expect(data.status).toBe('expired');
    // valid until 10 days before issuedAt (to the second): floor gives -10 or -11
    expect(data.daysRemaining).toBeLessThanOrEqual(-10);
    expect(data.daysRemaining).toBeGreaterThanOrEqual(-11);
  });

  it('wildcard and IP names match; other names do not, with a reason', async () => {
    const pki = await labPki();
    const leaf = summaryFromPem(pki.good.cert);
    expect(hostnameVerdict('www.lab.test', leaf)).toEqual({ match: true, reason: null });
    expect(hostnameVerdict('127.0.0.1', leaf).match).toBe(true);
    expect(hostnameVerdict('a.b.lab.test', leaf).match).toBe(false);
    const other = hostnameVerdict(LAB_HOST, summaryFromPem(pki.wrongHost.cert));
    expect(other.match).toBe(false);
    expect(other.reason).toContain(WRONG_HOST);
  });
});

describe('status precedence', () => {
  it('expired and not-yet-valid before hostname-mismatch before untrusted', async () => {
    const pki = await labPki();
    const now = pki.issuedAt;
    const mismatch = { match: false, reason: 'x' };
    const match = { match: true, reason: null };
    // The leaf's own dates decide even when OpenSSL reported something else last.
    expect(sslStatus(evidence([pki.expired.cert], false, 'DEPTH_ZERO_SELF_SIGNED_CERT'), mismatch, now)).toBe(
      'expired',
    );
    expect(sslStatus(evidence([pki.notYetValid.cert], false, 'UNABLE_TO_GET_ISSUER_CERT'), mismatch, now)).toBe(
      'not-yet-valid',
    );
    // OpenSSL's verdict also covers an expired intermediate while the leaf is in date.
    expect(sslStatus(evidence([pki.good.cert], false, 'CERT_HAS_EXPIRED'), match, now)).toBe('expired');
    expect(sslStatus(evidence([pki.good.cert], false, 'CERT_NOT_YET_VALID'), match, now)).toBe('not-yet-valid');
    expect(sslStatus(evidence([pki.good.cert], false, 'DEPTH_ZERO_SELF_SIGNED_CERT'), mismatch, now)).toBe(
      'hostname-mismatch',
    );
    expect(sslStatus(evidence([pki.good.cert], false, 'DEPTH_ZERO_SELF_SIGNED_CERT'), match, now)).toBe('untrusted');
    expect(sslStatus(evidence([pki.good.cert], true), match, now)).toBe('valid');
    // Time moves: the good certificate expires after 90 days.
    expect(sslStatus(evidence([pki.good.cert], true), match, new Date(now.getTime() + 91 * DAY_MS))).toBe('expired');
  });

  it('refuses to evaluate an empty chain', () => {
    expect(() =>
      sslCheckerData(LAB_HOST, { peerChain: [], authorized: false, authorizationError: null }, new Date()),
    ).toThrow(RangeError);
  });
});

describe('tls-configuration certificate block', () => {
  it('separates the hostname verdict from the trust verdict', async () => {
    const pki = await labPki();
    const block = tlsCertificateBlock(
      LAB_HOST,
      evidence([pki.wrongHost.cert, pki.intermediate.cert, pki.root.cert], true),
      pki.issuedAt,
    );
    expect(block).toMatchObject({
      ok: false,
      subject: WRONG_HOST,
      issuer: 'Netdiag Lab Intermediate CA',
      hostnameMatch: false,
      chainLength: 3,
      trusted: true,
      trustError: null,
    });
    expect(block.hostnameMismatchReason).toContain(WRONG_HOST);

    const selfSigned = tlsCertificateBlock(
      LAB_HOST,
      evidence([pki.selfSigned.cert], false, 'DEPTH_ZERO_SELF_SIGNED_CERT'),
      pki.issuedAt,
    );
    expect(selfSigned).toMatchObject({
      ok: false,
      hostnameMatch: true,
      hostnameMismatchReason: null,
      trusted: false,
      trustError: 'DEPTH_ZERO_SELF_SIGNED_CERT',
      chainLength: 1,
    });
  });

  it('fingerprints as colon-separated upper-case SHA-256, like Node', async () => {
    const pki = await labPki();
    const x509 = new X509Certificate(pki.good.cert);
    expect(sha256Fingerprint(x509.raw)).toBe(x509.fingerprint256);
  });
});

describe('walking getPeerCertificate(true)', () => {
  it('stops at a self-issued root that links to itself', async () => {
    const pki = await labPki();
    const legacy = (pem: string) =>
      new X509Certificate(pem).toLegacyObject() as import('node:tls').DetailedPeerCertificate;
    const leaf = legacy(pki.good.cert);
    const intermediate = legacy(pki.intermediate.cert);
    const root = legacy(pki.root.cert);
    leaf.issuerCertificate = intermediate;
    intermediate.issuerCertificate = root;
    root.issuerCertificate = root;
    expect(summarizePeerChain(leaf).map((c) => c.subject.CN)).toEqual([
      LAB_HOST,
      'Netdiag Lab Intermediate CA',
      'Netdiag Lab Root CA',
    ]);
    expect(summarizePeerChain(undefined)).toEqual([]);
  });
});
