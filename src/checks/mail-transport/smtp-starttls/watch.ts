/**
 * smtp-starttls (docs/contract/mail-transport.md): whether STARTTLS is offered, the session's outcome and
 * the certificate (docs/contract/monitors.md "Events"). The greeting is left out (many servers put the time
 * or a session id in it), and so are the address and the timing.
 */
import { arr, type JsonObject, num, obj, objOrNull, sortedSet, str } from '../../../watch/projection.js';
import { levels } from '../../../watch/ranking.js';
import { certificateStatus, expiryOf, expiryStatus, worstStatus } from '../../../watch/common.js';
import { defineWatch, type Expiry } from '../../../watch/watch-spec.js';

/** The watched fields of a STARTTLS session (mailhealth-check's starttls parts carry the same data). */
export function starttlsProjection(data: JsonObject) {
  const tls = objOrNull(data.tls);
  const certificate = tls && objOrNull(tls.certificate);
  return {
    starttls: str(data.starttls),
    status: str(data.status),
    extensions: sortedSet(arr(data.ehlo)),
    tls: tls && {
      version: str(tls.version),
      cipher: str(tls.cipher),
      certificate: certificate && {
        subject: str(certificate.subject),
        issuer: str(certificate.issuer),
        validTo: str(certificate.validTo),
        status: str(certificate.status),
      },
    },
  };
}

/** No STARTTLS means mail to the host travels in clear text: critical, as mailhealth-check judges it. */
export const starttlsOffered = levels({ offered: 0, 'not-offered': 1 }, ['not-offered']);
const sessionStatus = levels({ ok: 0, 'certificate-problem': 1, 'tls-failed': 1, unreachable: 1, 'no-starttls': 2 }, [
  'no-starttls',
]);

/** The certificate a STARTTLS session showed, as an expiry. */
export function starttlsExpiry(data: JsonObject, subject: string): Expiry[] {
  const expiresAt = str(obj(obj(data.tls).certificate).validTo);
  return expiryOf('certificate', subject, `the STARTTLS certificate of ${str(data.host) ?? '?'}`, expiresAt);
}

export const smtpStarttlsWatch = defineWatch({
  tool: 'smtp-starttls',
  project: starttlsProjection,
  ranked: [
    { pattern: 'starttls', ranking: starttlsOffered },
    { pattern: 'status', ranking: sessionStatus },
    { pattern: 'tls.certificate.status', ranking: certificateStatus },
  ],
  expiries: (data) => starttlsExpiry(data, 'certificate'),
  assess(data) {
    const host = str(data.host) ?? '?';
    const status = str(data.status);
    const certificate = obj(obj(data.tls).certificate);
    if (status === 'ok') {
      const days = num(certificate.daysRemaining);
      return {
        status: worstStatus(expiryStatus(days)),
        grade: null,
        summary: `${host} offers STARTTLS with a valid certificate${days === null ? '' : ` (${days} more days)`}.`,
      };
    }
    if (status === 'no-starttls')
      return {
        status: 'critical',
        grade: null,
        summary: `${host} does not offer STARTTLS: mail to it travels in clear text.`,
      };
    return { status: 'warning', grade: null, summary: `STARTTLS on ${host}: ${status ?? 'unknown'}.` };
  },
});
