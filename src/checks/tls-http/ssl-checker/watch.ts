/**
 * ssl-checker (docs/contract/api-v1.md): the certificate a server presents (docs/contract/monitors.md
 * "Events": the certificate and the protocols; ssl-checker reports no protocols). The address connected to
 * is left out: a name with several addresses may answer from another one each run.
 */
import { arr, type JsonObject, num, obj, sortedSet, str } from '../../../watch/projection.js';
import { certificateStatus, expiryOf, expiryStatus, worstStatus } from '../../../watch/common.js';
import { defineWatch } from '../../../watch/watch-spec.js';

export const sslCheckerWatch = defineWatch({
  tool: 'ssl-checker',
  project(data) {
    return {
      status: str(data.status),
      commonName: str(data.commonName),
      subjectAlternativeNames: sortedSet(arr(data.subjectAlternativeNames)),
      issuer: str(data.issuer),
      validFrom: str(data.validFrom),
      expiryDate: str(data.expiryDate),
      signatureAlgorithm: str(data.signatureAlgorithm),
      // in the order served: a changed intermediate is a changed chain
      chain: arr(data.chain).map((c) => str(obj(c).commonName) ?? ''),
      port: num(data.port),
    };
  },
  ranked: [{ pattern: 'status', ranking: certificateStatus }],
  expiries: (data) =>
    expiryOf('certificate', 'certificate', `the certificate of ${domainOf(data)}`, str(data.expiryDate)),
  assess(data) {
    const status = str(data.status);
    const days = num(data.daysRemaining);
    if (status !== 'valid')
      return {
        status: 'critical',
        grade: null,
        summary: `The certificate of ${domainOf(data)} is ${status ?? 'not valid'}.`,
      };
    return {
      status: worstStatus(expiryStatus(days)),
      grade: null,
      summary: `The certificate of ${domainOf(data)} is valid${days === null ? '' : ` for ${days} more days`}.`,
    };
  },
});

function domainOf(data: JsonObject): string {
  return str(data.domain) ?? '?';
}
