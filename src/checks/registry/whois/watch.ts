/**
 * whois (docs/contract/api-v1.md): the registrar, the expiry date and the name servers
 * (docs/contract/monitors.md "Events"), and whether the domain is registered at all. Left out: the raw
 * text, the servers asked and when, and the source (a registry's RDAP may fall back to WHOIS on one run).
 */
import { arr, bool, type JsonObject, num, sortedSet, str } from '../../../watch/projection.js';
import { criticalWhenTrue } from '../../../watch/ranking.js';
import { expiryOf, expiryStatus } from '../../../watch/common.js';
import { defineWatch } from '../../../watch/watch-spec.js';

export const whoisWatch = defineWatch({
  tool: 'whois',
  project(data) {
    return {
      notFound: bool(data.notFound),
      matchedDomain: str(data.matchedDomain),
      registrar: str(data.registrar),
      creationDate: str(data.creationDate),
      expiryDate: str(data.expiryDate),
      nameServers: sortedSet(arr(data.nameServers)),
    };
  },
  // a registration that disappears is the worst a domain's owner can hear of it
  ranked: [{ pattern: 'notFound', ranking: criticalWhenTrue }],
  expiries: (data) =>
    expiryOf('registration', 'registration', `the registration of ${nameOf(data)}`, str(data.expiryDate)),
  assess(data) {
    if (data.notFound === true)
      return { status: 'critical', grade: null, summary: `${nameOf(data)} is not registered.` };
    const days = num(data.daysUntilExpiry);
    const registrar = str(data.registrar);
    const expiry = str(data.expiryDate);
    return {
      status: expiryStatus(days),
      grade: null,
      summary: `${nameOf(data)} is registered${registrar ? ` with ${registrar}` : ''}${expiry ? ` until ${expiry.slice(0, 10)}` : ''}.`,
    };
  },
});

function nameOf(data: JsonObject): string {
  return str(data.matchedDomain) || str(data.domain) || '?';
}
