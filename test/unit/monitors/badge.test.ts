/**
 * The badge (src/monitors/badge.ts): a shields.io-style flat SVG of a pair's state, every text escaped,
 * and an ETag that follows its content.
 */
import { Parser } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { badgeOf, escapeXml, renderBadge, textWidth } from '../../../src/monitors/badge.js';

/** The badge as an XML parser reads it: its elements, texts and whether it parsed without error. */
function parse(svg: string) {
  const elements: { name: string; attributes: Record<string, string> }[] = [];
  const texts: string[] = [];
  let text: string | null = null;
  let error: Error | null = null;
  const parser = new Parser(
    {
      onopentag: (name, attributes) => {
        elements.push({ name, attributes });
        text = '';
      },
      // the parser hands a text over in pieces (at each entity): one text per element
      ontext: (t) => {
        if (text !== null) text += t;
      },
      onclosetag: () => {
        if (text) texts.push(text);
        text = null;
      },
      onerror: (e) => (error = e),
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(svg);
  parser.end();
  return { elements, texts, error };
}

describe('badge', () => {
  it('shows a rating letter, coloured by how good it is', () => {
    const { svg } = badgeOf('tls-rating', { status: 'ok', grade: 'A+' });
    const { elements, texts, error } = parse(svg);
    expect(error).toBeNull();
    expect(elements[0]).toMatchObject({
      name: 'svg',
      attributes: { height: '20', role: 'img', 'aria-label': 'tls-rating: A+' },
    });
    expect(texts).toContain('tls-rating');
    expect(texts).toContain('A+');
    expect(elements.filter((e) => e.name === 'rect').map((e) => e.attributes.fill)).toContain('#4c1');
    const colourOf = (grade: string) =>
      parse(badgeOf('http-rating', { status: 'ok', grade }).svg).elements.find(
        (e) => e.name === 'rect' && e.attributes.x !== undefined,
      )!.attributes.fill;
    expect(['A+', 'A-', 'B', 'C-', 'D+', 'F', 'T'].map(colourOf)).toEqual([
      '#4c1',
      '#97ca00',
      '#a4a61d',
      '#dfb317',
      '#fe7d37',
      '#e05d44',
      '#e05d44',
    ]);
  });

  it('shows ok / warning / critical for the other checks, and error or pending without a letter', () => {
    const messageOf = (status: any, grade: string | null = null) => {
      const { texts } = parse(badgeOf('whois', { status, grade }).svg);
      return texts[texts.length - 1];
    };
    expect(['ok', 'info', 'warning', 'critical', 'error', 'pending'].map((s) => messageOf(s))).toEqual([
      'ok',
      'ok',
      'warning',
      'critical',
      'error',
      'pending',
    ]);
    // a rating whose last run failed shows the failure, not its old letter
    expect(messageOf('error', 'A')).toBe('error');
  });

  it('escapes every text and drops what XML cannot hold', () => {
    const hostile = `"><script>alert('x')</script>&\u0007\ud800`;
    const svg = renderBadge(hostile, hostile, '#4c1" onload="x');
    expect(svg).not.toContain('<script');
    expect(svg).not.toContain('onload');
    const { elements, texts, error } = parse(svg);
    expect(error).toBeNull();
    expect(elements.map((e) => e.name)).not.toContain('script');
    expect(texts).toContain(`"><script>alert('x')</script>&`);
    expect(escapeXml(`<&>"'`)).toBe('&#60;&#38;&#62;&#34;&#39;');
  });

  it('sizes each side by its text, and shortens a long text', () => {
    expect(textWidth('passing')).toBe(43);
    expect(textWidth('i')).toBeLessThan(textWidth('m'));
    const svg = renderBadge('x'.repeat(200), 'ok', '#4c1');
    const width = Number(parse(svg).elements[0]!.attributes.width);
    expect(width).toBe(textWidth(`${'x'.repeat(39)}…`) + textWidth('ok') + 20);
    expect(parse(svg).texts[1]).toMatch(/^x{39}…$/);
  });

  it('has an ETag that follows the content', () => {
    const a = badgeOf('tls-rating', { status: 'ok', grade: 'A' });
    expect(badgeOf('tls-rating', { status: 'ok', grade: 'A' }).etag).toBe(a.etag);
    expect(badgeOf('tls-rating', { status: 'warning', grade: 'B' }).etag).not.toBe(a.etag);
    expect(a.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
  });
});
