/** A composite check's verdict and its checks as a table (website-health-check, mailhealth-check). */
import { compositeFindings, severityOfStatus } from '../../findings.js';
import { type Child, type Data, h, isObject, list, text } from '../dom.js';
import { badge, findingsList, table, toneOf } from './common.js';

export function compositeSummary(data: Data): Child[] {
  const verdict = isObject(data.verdict) ? data.verdict : {};
  const status = text(verdict.status);
  return [
    h('p', { class: 'lead' }, badge(status, toneOf(severityOfStatus(status))), ' ', text(verdict.headline)),
    text(verdict.summary) ? h('p', { class: 'summary' }, text(verdict.summary)) : null,
  ];
}

export function checksTable(caption: string, data: Data): Child[] {
  return [
    table(
      caption,
      ['Check', 'Status', 'Summary'],
      list(data.checks).map((c) => [
        `${text(c.label)}${text(c.host) ? ` (${text(c.host)})` : ''}`,
        badge(text(c.status), toneOf(severityOfStatus(c.status))),
        text(c.error) || text(c.summary),
      ]),
      { rowHeader: true },
    ),
    findingsList(compositeFindings(data)),
  ];
}

/**
 * One check of a composite answer on its own (a section with `check`, src/web/report/sections.ts): its status and
 * summary, its advice, and the findings its details carry (the check's data: under its field in GraphQL's
 * answer, the details themselves in REST's).
 */
export function checkSection(data: Data, id: string): Child[] {
  const check = list(data.checks).find((c) => c.id === id);
  if (!check) return [h('p', { class: 'lead' }, 'Not checked.')];
  const details = isObject(check.details) ? check.details : {};
  const own = Array.isArray(details.findings) ? details : (Object.values(details).find(isObject) ?? {});
  return [
    h(
      'p',
      { class: 'lead' },
      badge(text(check.status), toneOf(severityOfStatus(check.status))),
      ' ',
      text(check.error) || text(check.summary),
    ),
    findingsList(compositeFindings({ checks: [check] }), 'Advice'),
    findingsList(
      list(own.findings).flatMap((f) => {
        const severity = severityOfStatus(f.severity);
        return severity
          ? [{ severity, code: text(f.code), title: text(f.code), what: text(f.message), advice: null }]
          : [];
      }),
    ),
  ];
}
