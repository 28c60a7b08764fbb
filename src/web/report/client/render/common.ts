/** Pieces every section uses: a status badge, the findings with their advice, the raw answer folded. */
import type { Finding, Severity } from '../../findings.js';
import { type Child, h } from '../dom.js';

const SEVERITY_WORDS: Record<Severity, string> = { critical: 'Critical', warning: 'Warning', info: 'Note' };

/** A status word in a coloured badge; the colour repeats the word, never replaces it. */
export function badge(status: string, tone: Severity | 'ok' | 'neutral'): HTMLElement {
  return h('span', { class: `badge tone-${tone}` }, status);
}

export function toneOf(severity: Severity | null): Severity | 'ok' {
  return severity ?? 'ok';
}

/** The findings, worst first, each with what is wrong, why it matters, how to fix it and where it is written. */
export function findingsList(findings: readonly Finding[], heading = 'Findings'): Child {
  if (findings.length === 0) return null;
  const order: Record<Severity, number> = { critical: 0, warning: 1, info: 2 };
  const sorted = [...findings].sort((a, b) => order[a.severity] - order[b.severity]);
  return h(
    'div',
    { class: 'findings' },
    h('h3', {}, heading),
    h(
      'ul',
      {},
      sorted.map((f) =>
        h(
          'li',
          { class: `finding tone-${f.severity}` },
          h(
            'p',
            { class: 'finding-title' },
            badge(SEVERITY_WORDS[f.severity], f.severity),
            ' ',
            h('strong', {}, f.title),
          ),
          f.what ? h('p', { class: 'what' }, f.what) : null,
          f.advice
            ? h(
                'dl',
                { class: 'advice' },
                h('dt', {}, 'Why it matters'),
                h('dd', {}, f.advice.why),
                h('dt', {}, 'How to fix it'),
                h('dd', {}, f.advice.fix),
                h('dt', {}, 'Reference'),
                h('dd', {}, h('a', { href: f.advice.link.url, rel: 'noopener noreferrer' }, f.advice.link.title)),
              )
            : null,
        ),
      ),
    ),
  );
}

/** The part's answer as the API gave it, folded under the section. */
export function rawAnswer(label: string, data: unknown): HTMLElement {
  return h(
    'details',
    { class: 'raw' },
    h('summary', {}, `Raw answer (${label})`),
    h('pre', {}, h('code', {}, JSON.stringify(data, null, 2))),
  );
}

/** A table with a caption, a header row and body rows; `rowHeader`: the first cell of each row is its header. */
export function table(
  caption: string,
  headers: readonly string[],
  rows: readonly (readonly Child[])[],
  options: { rowHeader?: boolean; className?: string } = {},
): HTMLElement {
  return h(
    'div',
    { class: 'scroll' },
    h(
      'table',
      { class: options.className ?? '' },
      h('caption', {}, caption),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          headers.map((name) => h('th', { scope: 'col' }, name)),
        ),
      ),
      h(
        'tbody',
        {},
        rows.map((cells) =>
          h(
            'tr',
            {},
            cells.map((cell, i) =>
              i === 0 && options.rowHeader ? h('th', { scope: 'row' }, cell) : h('td', {}, cell),
            ),
          ),
        ),
      ),
    ),
  );
}
