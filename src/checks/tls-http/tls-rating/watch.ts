/**
 * tls-rating (docs/contract/grades.md): the letter, caps, warnings, supported protocols and
 * the certificate (docs/contract/monitors.md "Events"). The suites and groups a rating cut short by its
 * bounds did not see all of (`partial`) are not known that run. The certificate carries the leaf's SHA-256
 * fingerprint (a new certificate is a change), its issuer and its dates under ssl-checker's names (`expiryDate`
 * is the `expiring` events' date; `daysRemaining`, which moves every day, is not watched).
 */
import {
  arr,
  bool,
  type JsonObject,
  keyed,
  num,
  obj,
  objOrNull,
  sortedSet,
  str,
  UNKNOWN,
} from '../../../watch/projection.js';
import { letterGrade } from '../../../watch/ranking.js';
import {
  certificateStatus,
  expiryOf,
  letterStatus,
  protocolRankings,
  protocolSet,
  worseWhenPresent,
} from '../../../watch/common.js';
import { defineWatch } from '../../../watch/watch-spec.js';

export const tlsRatingWatch = defineWatch({
  tool: 'tls-rating',
  project(data) {
    const grade = obj(data.grade);
    const certificate = objOrNull(data.certificate);
    const partial = data.partial === true;
    return {
      grade: {
        letter: str(grade.letter),
        caps: keyed(
          arr(grade.caps),
          (c) => str(obj(c).code),
          (c) => str(obj(c).cap),
        ),
        warnings: sortedSet(arr(grade.warnings).map((w) => obj(w).code)),
      },
      protocols: protocolSet(data.protocols),
      cipherSuites: partial
        ? UNKNOWN
        : sortedSet(arr(data.cipherSuites).map((s) => `${str(obj(s).version)} ${str(obj(s).name)}`)),
      groups: partial ? UNKNOWN : sortedSet(arr(data.groups)),
      certificate: certificate && {
        status: str(certificate.status),
        fingerprint: str(certificate.fingerprint),
        issuer: str(certificate.issuer),
        expiryDate: str(certificate.expiryDate),
        keyType: str(certificate.keyType),
        keyBits: num(certificate.keyBits),
        signatureAlgorithm: str(certificate.signatureAlgorithm),
        chainComplete: bool(certificate.chainComplete),
      },
      hsts: bool(obj(data.hsts).present),
      mozillaProfile: str(obj(data.mozilla).profile),
    };
  },
  ranked: [
    { pattern: 'grade.letter', ranking: letterGrade },
    { pattern: 'grade.caps[*]', ranking: worseWhenPresent },
    { pattern: 'certificate.status', ranking: certificateStatus },
    ...protocolRankings('protocols'),
  ],
  expiries: (data) =>
    expiryOf('certificate', 'certificate', `the certificate of ${hostOf(data)}`, str(obj(data.certificate).expiryDate)),
  assess(data) {
    const grade = obj(data.grade);
    const letter = str(grade.letter);
    const score = num(grade.score);
    return {
      status: letterStatus(letter),
      grade: letter,
      summary:
        letter === null
          ? `The TLS configuration of ${hostOf(data)} was not graded.`
          : `The TLS configuration of ${hostOf(data)} grades ${letter}${score === null ? '' : ` (score ${score})`}.`,
    };
  },
});

function hostOf(data: JsonObject): string {
  const port = num(data.port);
  return `${str(data.host) ?? '?'}${port === null || port === 443 ? '' : `:${port}`}`;
}
