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
