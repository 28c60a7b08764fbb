/** The HTTP Observatory's grade and its tests with their modifiers (the http-rating part of the website check). */
import { httpRatingFindings } from '../../findings.js';
import { gradeSeverity } from '../../verdicts.js';
import { type Child, type Data, h, list, show, text } from '../dom.js';
import { badge, findingsList, rawAnswer, table, toneOf } from './common.js';

export function renderObservatory(rating: Data | null, part: Data | null): Child[] {
  if (!rating) {
    return [h('p', { class: 'lead' }, 'Not rated: ', text(part?.error) || text(part?.summary) || 'no rating.')];
  }
  const grade = text(rating.grade);
  return [
    h(
      'div',
      { class: 'card' },
      h(
        'p',
        {
          class: `grade tone-${rating.grade ? toneOf(gradeSeverity(grade)) : 'warning'}`,
          'aria-label': `grade ${grade || 'none'}`,
        },
        grade || '–',
      ),
      h(
        'div',
        { class: 'card-facts' },
        h(
          'p',
          {},
          `Score ${text(rating.score)} · ${text(rating.testsPassed)} of ${text(rating.testsQuantity)} tests passed`,
        ),
        h('p', {}, `${text(rating.finalUrl) || text(rating.url)} answered ${show(rating.statusCode)}`),
        rating.error ? h('p', {}, text(rating.error)) : null,
      ),
    ),
    table(
      'Tests',
      ['Test', 'Result', 'Passed', 'Modifier', 'What it found'],
      list(rating.tests).map((t) => [
        text(t.name),
        text(t.result),
        t.pass === true ? badge('pass', 'ok') : badge('fail', 'warning'),
        typeof t.scoreModifier === 'number' && t.scoreModifier > 0 ? `+${t.scoreModifier}` : show(t.scoreModifier),
        text(t.description),
      ]),
      { rowHeader: true },
    ),
    findingsList(httpRatingFindings(rating)),
    rawAnswer('http-rating', rating),
  ];
}
