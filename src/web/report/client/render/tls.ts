/**
 * The TLS card: the letter, the three scores as bars, the caps and warnings with their advice, the
 * protocol × suite table, the certificate, HSTS and Mozilla's profile — from the tls-rating part of the
 * website health check (the same data as GET /api/v1/tls-rating).
 */
import { tlsRatingFindings } from '../../findings.js';
import { gradeSeverity } from '../../verdicts.js';
import { type Child, type Data, h, isObject, list, s, show, text } from '../dom.js';
import { findingsList, rawAnswer, table, toneOf } from './common.js';

/** Three horizontal bars, 0–100, labelled with their names and values. */
function scoreBars(grade: Data): SVGSVGElement {
  const bars: [string, unknown][] = [
    ['Protocol', grade.protocolScore],
    ['Key exchange', grade.keyExchangeScore],
    ['Cipher', grade.cipherScore],
  ];
  const label = bars.map(([name, value]) => `${name} ${text(value)} of 100`).join(', ');
  return s(
    'svg',
    {
      class: 'bars',
      viewBox: '0 0 360 96',
      width: 360,
      height: 96,
      role: 'img',
      'aria-label': label,
      focusable: 'false',
    },
    s('title', {}, label),
    bars.map(([name, value], i) => {
      const score = typeof value === 'number' ? Math.max(0, Math.min(100, value)) : 0;
      const y = 8 + i * 30;
      return s(
        'g',
        { class: `bar ${score >= 80 ? 'tone-good' : score >= 50 ? 'tone-warn' : 'tone-bad'}` },
        s('text', { x: 0, y: y + 14, class: 'bar-name' }, name),
        s('rect', { x: 110, y, width: 200, height: 18, rx: 3, class: 'bar-track' }),
        s('rect', { x: 110, y, width: score * 2, height: 18, rx: 3, class: 'bar-fill' }),
        s('text', { x: 318, y: y + 14, class: 'bar-value' }, text(value)),
      );
    }),
  );
}

/** Suites down, protocol versions across: which version accepts which suite. */
function suiteMatrix(rating: Data): HTMLElement {
  const suites = list(rating.cipherSuites);
  const versions = list(rating.protocols)
    .filter((p) => p.result === 'supported' || suites.some((c) => c.version === p.version))
    .map((p) => text(p.version));
  const byName = new Map<string, { suite: Data; versions: Set<string> }>();
  for (const suite of suites) {
    const name = text(suite.name);
    const row = byName.get(name) ?? { suite, versions: new Set<string>() };
    row.versions.add(text(suite.version));
    byName.set(name, row);
  }
  return table(
    'Cipher suites accepted, by protocol version',
    ['Suite', ...versions, 'Bits', 'Key exchange', 'Forward secrecy', 'AEAD'],
    [...byName.entries()].map(([name, { suite, versions: accepted }]) => [
      name,
      ...versions.map((v) => (accepted.has(v) ? h('span', { class: 'yes' }, 'yes') : h('span', { class: 'no' }, '–'))),
      show(suite.bits),
      show(suite.keyExchange),
      show(suite.forwardSecrecy),
      show(suite.aead),
    ]),
    { rowHeader: true, className: 'matrix' },
  );
}

export function renderTls(rating: Data | null, part: Data | null): Child[] {
  if (!rating) {
    return [
      h(
        'p',
        { class: 'lead' },
        'Not rated: ',
        text(part?.error) || text(part?.summary) || 'the website check did not rate TLS.',
      ),
    ];
  }
  const grade = isObject(rating.grade) ? rating.grade : {};
  const letter = text(grade.letter);
  const certificate = isObject(rating.certificate) ? rating.certificate : {};
  const hsts = isObject(rating.hsts) ? rating.hsts : {};
  const mozilla = isObject(rating.mozilla) ? rating.mozilla : {};
  const violations = isObject(mozilla.violations) ? mozilla.violations : {};
  const preferred = list(rating.preferred);
  return [
    h(
      'div',
      { class: 'card' },
      h('p', { class: `grade tone-${toneOf(gradeSeverity(letter))}`, 'aria-label': `grade ${letter}` }, letter),
      h(
        'div',
        { class: 'card-facts' },
        h('p', {}, `${text(rating.host)}:${text(rating.port)} (${text(rating.ip)})`),
        h(
          'p',
          {},
          `Score ${text(grade.score)}`,
          letter !== text(grade.letterIgnoringTrust)
            ? ` · ${text(grade.letterIgnoringTrust)} if the certificate were trusted`
            : '',
          ` · ${text(rating.handshakes)} handshakes in ${Math.round(Number(rating.durationMs))} ms`,
          rating.partial === true ? ' · partial: the rating ran out of time' : '',
        ),
        scoreBars(grade),
      ),
    ),
    findingsList(tlsRatingFindings(rating), 'Caps and warnings'),
    table(
      'Protocol versions',
      ['Version', 'Result', 'Note'],
      list(rating.protocols).map((p) => [text(p.version), text(p.result), show(p.note)]),
      { rowHeader: true },
    ),
    suiteMatrix(rating),
    h(
      'dl',
      { class: 'facts' },
      h('dt', {}, 'Certificate'),
      h(
        'dd',
        {},
        `${text(certificate.status)} · ${text(certificate.keyType)} ${text(certificate.keyBits)} bits · ${text(certificate.signatureAlgorithm)} · chain ${certificate.chainComplete === true ? 'complete' : 'incomplete'}`,
      ),
      h('dt', {}, 'Preferred suites'),
      h('dd', {}, preferred.map((p) => `${text(p.version)}: ${text(p.name)}`).join(', ') || '–'),
      h('dt', {}, 'Server order'),
      h('dd', {}, show(rating.serverOrder)),
      h('dt', {}, 'Groups'),
      h('dd', {}, show(rating.groups), rating.postQuantum === true ? ' (post-quantum offered)' : ''),
      h('dt', {}, 'HSTS'),
      h('dd', {}, hsts.present === true ? `max-age ${text(hsts.maxAge)}` : 'not sent'),
      h('dt', {}, "Mozilla's profile"),
      h(
        'dd',
        {},
        show(mozilla.profile),
        ['modern', 'intermediate', 'old'].map((profile) => {
          const missed = Array.isArray(violations[profile]) ? (violations[profile] as unknown[]).map(text) : [];
          return missed.length > 0 ? h('p', { class: 'small' }, `Short of ${profile}: ${missed.join('; ')}`) : null;
        }),
      ),
    ),
    rawAnswer('tls-rating', rating),
  ];
}
