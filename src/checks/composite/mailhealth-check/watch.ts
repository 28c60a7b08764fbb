/**
 * mailhealth-check (docs/contract/api-v1.md, docs/contract/mail-transport.md): each part's status, the MX
 * set, the SPF and DMARC records and the block-list listings (docs/contract/monitors.md "Events"), and for
 * each MX host its STARTTLS and DANE parts and the certificate it showed:
 * - `parts[<id>]`: a part about the domain (mx, spf, dmarc, dkim, blacklist, mta-sts, tls-rpt, bimi);
 * - `mx[<host>].starttls`, `mx[<host>].dane`: a part about one MX host, with `starttlsOffered` and
 *   `certificate` from its session;
 * - `listings[<address>]`: the lists an MX address is on.
 * A part that errored is not known beyond its status that run (its details are carried forward); an address
 * some lists did not answer for, and that none listed, is not known either.
 */
import {
  arr,
  type JsonObject,
  keyed,
  memberKey,
  num,
  obj,
  objOrNull,
  type ProjectionValue,
  sortedSet,
  str,
  UNKNOWN,
} from '../../../watch/projection.js';
import { criticalWhenPresent, partStatus } from '../../../watch/ranking.js';
import { certificateStatus, fromDetails, type PartView, partsOf, verdictAssessment } from '../../../watch/common.js';
import { starttlsExpiry, starttlsOffered } from '../../mail-transport/smtp-starttls/watch.js';
import { defineWatch } from '../../../watch/watch-spec.js';

/** Parts that exist once per MX host (MailCheck.host). */
const PER_HOST = new Set(['starttls', 'dane']);

export const mailhealthWatch = defineWatch({
  tool: 'mailhealth-check',
  project(data) {
    const parts = partsOf(data);
    const byId = (id: string) => parts.find((p) => p.id === id && p.host === null);
    return {
      parts: keyed(
        parts.filter((p) => p.host === null || !PER_HOST.has(p.id)),
        (p) => p.id,
        (p) => p.status,
      ),
      mxHosts: fromDetails(byId('mx'), (d) =>
        sortedSet(arr(d.hosts).map((h) => `${num(obj(h).priority)} ${str(obj(h).exchange)}`)),
      ),
      mx: hostsOf(parts),
      spf: fromDetails(byId('spf'), (d) => str(d.record)),
      dmarc: fromDetails(byId('dmarc'), (d) => ({ record: str(d.record), policy: str(d.policy) })),
      dkimSelectors: fromDetails(byId('dkim'), (d) => sortedSet(arr(d.selectorsFound))),
      listings: fromDetails(byId('blacklist'), (d) =>
        keyed(
          arr(d.results),
          (r) => (obj(r).listed === true || arr(obj(r).failedLists).length > 0 ? str(obj(r).ip) : null),
          (r) => (obj(r).listed === true ? sortedSet(arr(obj(r).listedOn)) : UNKNOWN),
        ),
      ),
    };
  },
  ranked: [
    { pattern: 'parts[*]', ranking: partStatus },
    { pattern: 'mx[*].starttls', ranking: partStatus },
    { pattern: 'mx[*].dane', ranking: partStatus },
    { pattern: 'mx[*].starttlsOffered', ranking: starttlsOffered },
    { pattern: 'mx[*].certificate.status', ranking: certificateStatus },
    { pattern: 'listings[*]', ranking: criticalWhenPresent },
  ],
  expiries(data) {
    return partsOf(data)
      .filter((p) => p.id === 'starttls' && p.host !== null && p.details !== null)
      .flatMap((p) => starttlsExpiry(p.details!, `mx${memberKey(p.host!)}.certificate`));
  },
  assess: (data) => verdictAssessment(data, `The mail set-up of ${str(data.domain) ?? '?'} was checked.`),
});

/** `mx[<host>]`: the STARTTLS and DANE parts of each MX host. */
function hostsOf(parts: readonly PartView[]) {
  const hosts = new Map<string, Record<string, ProjectionValue>>();
  for (const part of parts) {
    if (part.host === null || !PER_HOST.has(part.id)) continue;
    const host = hosts.get(part.host) ?? {};
    hosts.set(part.host, host);
    host[part.id] = part.status;
    if (part.id === 'starttls') {
      host.starttlsOffered = fromDetails(part, (d) => str(d.starttls));
      host.certificate = fromDetails(part, certificateOf);
    }
  }
  return keyed(
    [...hosts],
    ([name]) => name,
    ([, value]) => value,
  );
}

function certificateOf(details: JsonObject) {
  const certificate = objOrNull(obj(details.tls).certificate);
  return (
    certificate && {
      subject: str(certificate.subject),
      issuer: str(certificate.issuer),
      validTo: str(certificate.validTo),
      status: str(certificate.status),
    }
  );
}
