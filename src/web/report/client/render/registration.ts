/** The registration: registrar, dates, name servers; the WHOIS or RDAP text folded with the raw answer. */
import { whoisFindings } from '../../findings.js';
import { type Child, type Data, h, show, text } from '../dom.js';
import { findingsList, rawAnswer } from './common.js';

export function renderRegistration(whois: Data): Child[] {
  if (whois.notFound === true) {
    return [
      h('p', { class: 'lead' }, 'Not registered: ', text(whois.message) || 'the registry has no record of it.'),
      rawAnswer('whois', whois),
    ];
  }
  const days = whois.daysUntilExpiry;
  return [
    h(
      'dl',
      { class: 'facts' },
      h('dt', {}, 'Domain'),
      h('dd', {}, text(whois.matchedDomain) || text(whois.domain)),
      h('dt', {}, 'Registrar'),
      h('dd', {}, show(whois.registrar)),
      h('dt', {}, 'Created'),
      h('dd', {}, show(whois.creationDate)),
      h('dt', {}, 'Expires'),
      h(
        'dd',
        {},
        show(whois.expiryDate),
        typeof days === 'number' ? ` (${days < 0 ? `${-days} days ago` : `in ${days} days`})` : '',
      ),
      h('dt', {}, 'Updated'),
      h('dd', {}, show(whois.updatedDate)),
      h('dt', {}, 'Name servers'),
      h('dd', {}, show(whois.nameServers)),
      h('dt', {}, 'Source'),
      h('dd', {}, `${text(whois.source)} (${show(whois.servers)})`),
    ),
    findingsList(whoisFindings(whois)),
    rawAnswer('whois', whois),
  ];
}
