/**
 * tls-configuration (docs/contract/api-v1.md): the certificate and the protocols (docs/contract/monitors.md
 * "Events"), with the certificate's fingerprint as each address family saw it and what was negotiated.
 * Timings are left out, and so are the addresses (a name may answer from another one each run).
 */
import { arr, bool, type JsonObject, keyed, num, obj, objOrNull, str } from '../../../watch/projection.js';
import {
  criticalWhenFalse,
  expiryOf,
  expiryStatus,
  goodWhenTrue,
  protocolRankings,
  protocolSet,
  worstStatus,
} from '../../../watch/common.js';
import { defineWatch } from '../../../watch/watch-spec.js';

export const tlsConfigurationWatch = defineWatch({
  tool: 'tls-configuration',
  project(data) {
    const certificate = objOrNull(data.certificate);
    const negotiated = objOrNull(data.negotiated);
    return {
      connected: data.connectionError === null || data.connectionError === undefined,
      protocols: protocolSet(data.protocols),
      certificate: certificate && {
        ok: bool(certificate.ok),
        subject: str(certificate.subject),
        issuer: str(certificate.issuer),
        validFrom: str(certificate.validFrom),
        expiryDate: str(certificate.expiryDate),
        hostnameMatch: bool(certificate.hostnameMatch),
        trusted: bool(certificate.trusted),
        chainLength: num(certificate.chainLength),
      },
      families: keyed(
        arr(data.families),
        (f) => (num(obj(f).family) === 6 ? 'IPv6' : 'IPv4'),
        (f) => ({ status: str(obj(f).status), certFingerprint: str(obj(f).certFingerprint) }),
      ),
      negotiated: negotiated && {
        version: str(negotiated.version),
        cipher: str(negotiated.cipher),
        alpn: str(negotiated.alpn),
      },
      sniRequired: bool(obj(data.sni).required),
    };
  },
  // a certificate judgement (ok, trusted, name match) turning false is the critical state ssl-checker's statuses are
  ranked: [
    { pattern: 'connected', ranking: goodWhenTrue },
    { pattern: 'certificate.ok', ranking: criticalWhenFalse },
    { pattern: 'certificate.trusted', ranking: criticalWhenFalse },
    { pattern: 'certificate.hostnameMatch', ranking: criticalWhenFalse },
    ...protocolRankings('protocols'),
  ],
  expiries: (data) =>
    expiryOf(
      'certificate',
      'certificate',
      `the certificate of ${domainOf(data)}`,
      str(obj(data.certificate).expiryDate),
    ),
  assess(data) {
    if (data.connectionError !== null && data.connectionError !== undefined)
      return { status: 'critical', grade: null, summary: `No TLS connection to ${domainOf(data)} could be made.` };
    const certificate = obj(data.certificate);
    if (certificate.ok !== true)
      return { status: 'critical', grade: null, summary: `The certificate of ${domainOf(data)} is not valid.` };
    const old = arr(data.protocols).some(
      (p) => ['TLSv1', 'TLSv1.1'].includes(str(obj(p).version) ?? '') && obj(p).result === 'supported',
    );
    const days = num(certificate.daysRemaining);
    return {
      status: worstStatus(expiryStatus(days), old ? 'warning' : 'ok'),
      grade: null,
      summary: `${domainOf(data)} negotiates ${str(obj(data.negotiated).version) ?? 'TLS'}${old ? ' and still accepts TLS 1.0 or 1.1' : ''}; its certificate is valid${days === null ? '' : ` for ${days} more days`}.`,
    };
  },
});

function domainOf(data: JsonObject): string {
  return str(data.domain) ?? '?';
}
