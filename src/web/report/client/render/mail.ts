/**
 * The mail route: the MX hosts in preference order, each with its STARTTLS state, certificate, DANE and
 * MTA-STS state, drawn as the steps a sender takes; then the mail checks and their findings.
 */
import { severityOfStatus } from '../../findings.js';
import { type Child, type Data, h, isObject, list, show, text } from '../dom.js';
import { badge, rawAnswer, toneOf } from './common.js';
import { checksTable, compositeSummary } from './composite.js';

const sameHost = (a: string, b: string) => a.replace(/\.$/, '').toLowerCase() === b.replace(/\.$/, '').toLowerCase();

function partFor(checks: Data[], id: string, host: string): Data | null {
  return checks.find((c) => c.id === id && sameHost(text(c.host), host)) ?? null;
}

function detail(check: Data | null, key: string): Data | null {
  const details = isObject(check?.details) ? check.details : null;
  const value = details?.[key];
  return isObject(value) ? value : null;
}

function state(label: string, check: Data | null, words: string): HTMLElement {
  const status = text(check?.status);
  return h(
    'li',
    {},
    h('span', { class: 'state-name' }, label),
    ' ',
    check ? badge(status, toneOf(severityOfStatus(status))) : badge('not checked', 'neutral'),
    ' ',
    words,
  );
}

export function mailRoute(mail: Data): HTMLElement {
  const checks = list(mail.checks);
  const mx = checks.find((c) => c.id === 'mx');
  const mxDetails = isObject(mx?.details) ? mx.details : {};
  const hosts = list(mxDetails.hosts).sort((a, b) => Number(a.priority) - Number(b.priority));
  const mtaSts = detail(checks.find((c) => c.id === 'mta-sts') ?? null, 'mtaSts');
  const policy = isObject(mtaSts?.policy) ? mtaSts.policy : null;
  if (mxDetails.nullMx === true || hosts.length === 0) {
    return h('p', { class: 'lead' }, text(mx?.summary) || 'No MX hosts: the domain takes no mail.');
  }
  return h(
    'ol',
    { class: 'route', 'aria-label': 'Mail route: MX hosts in preference order' },
    hosts.map((host) => {
      const exchange = text(host.exchange);
      const starttlsCheck = partFor(checks, 'starttls', exchange);
      const starttls = detail(starttlsCheck, 'starttls');
      const tls = isObject(starttls?.tls) ? starttls.tls : null;
      const certificate = isObject(tls?.certificate) ? tls.certificate : null;
      const daneCheck = partFor(checks, 'dane', exchange);
      const dane = detail(daneCheck, 'dane');
      const match = list(mtaSts?.mxMatches).find((m) => sameHost(text(m.exchange), exchange));
      return h(
        'li',
        { class: 'hop' },
        h(
          'p',
          { class: 'hop-name' },
          h('span', { class: 'priority' }, `preference ${text(host.priority)}`),
          ' ',
          h('strong', {}, exchange),
        ),
        h(
          'p',
          { class: 'small' },
          `${show(host.addresses ?? host.ip)}${text(host.provider) ? ` · ${text(host.provider)}` : ''}`,
        ),
        h(
          'ul',
          { class: 'states' },
          state(
            'STARTTLS',
            starttlsCheck,
            starttls
              ? `${starttls.starttls === true ? 'offered' : 'not offered'}${tls ? `, ${text(tls.version)} ${text(tls.cipher)}` : ''}`
              : '',
          ),
          h(
            'li',
            {},
            h('span', { class: 'state-name' }, 'Certificate'),
            ' ',
            certificate
              ? [
                  badge(text(certificate.status), text(certificate.status) === 'valid' ? 'ok' : 'critical'),
                  ` ${text(certificate.subject)}, issued by ${text(certificate.issuer)}, valid to ${text(certificate.validTo)} (${text(certificate.daysRemaining)} days)`,
                ]
              : badge('none', 'neutral'),
          ),
          state(
            'DANE',
            daneCheck,
            dane ? `${list(dane.tlsa).length} TLSA records${dane.dnssec ? `, DNSSEC ${text(dane.dnssec)}` : ''}` : '',
          ),
          h(
            'li',
            {},
            h('span', { class: 'state-name' }, 'MTA-STS'),
            ' ',
            policy
              ? [
                  badge(`mode ${text(policy.mode)}`, text(policy.mode) === 'enforce' ? 'ok' : 'warning'),
                  match
                    ? match.matches === true
                      ? ' this host is in the policy'
                      : ' this host is not in the policy'
                    : '',
                ]
              : badge('no policy', 'neutral'),
          ),
        ),
      );
    }),
  );
}

export function renderMail(mail: Data): Child[] {
  return [
    ...compositeSummary(mail),
    mailRoute(mail),
    ...checksTable('Mail checks', mail),
    rawAnswer('mailhealth-check', mail),
  ];
}
