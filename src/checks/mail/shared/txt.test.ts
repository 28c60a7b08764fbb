import { describe, expect, it } from 'vitest';
import { parseTagList, tagsObject } from './txt.js';

describe('parseTagList (RFC 6376 §3.2)', () => {
  it('splits tags and trims white space around names, "=" and values', () => {
    expect(parseTagList(' a = 1 ;b=two words;\r\n\tc= 3 ;')).toEqual({
      tags: [
        { name: 'a', value: '1' },
        { name: 'b', value: 'two words' },
        { name: 'c', value: '3' },
      ],
      duplicates: [],
      errors: [],
    });
  });

  it('keeps an empty value and skips empty specs', () => {
    expect(parseTagList('p=;;  ; x=1').tags).toEqual([
      { name: 'p', value: '' },
      { name: 'x', value: '1' },
    ]);
  });

  it('keeps the first of a repeated tag and reports it', () => {
    const list = parseTagList('a=1; a=2; a=3');
    expect(list.tags).toEqual([{ name: 'a', value: '1' }]);
    expect(list.duplicates).toEqual(['a']);
    expect(list.errors).toHaveLength(2);
  });

  it('treats names case-sensitively unless told to fold them', () => {
    expect(parseTagList('a=1; A=2').duplicates).toEqual([]);
    expect(parseTagList('a=1; A=2', { foldNames: true }).duplicates).toEqual(['a']);
  });

  it.each([
    ['novalue', 'not a tag=value pair'],
    ['=x', 'not a valid tag name'],
    ['1a=x', 'not a valid tag name'],
    ['a b=x', 'not a valid tag name'],
    ['a=x\u0000y', 'characters'],
  ])('%j → %s', (text, error) => {
    expect(parseTagList(text).errors.join('\n')).toContain(error);
  });

  it('clips long garbage in messages', () => {
    const error = parseTagList('x'.repeat(10_000)).errors[0] ?? '';
    expect(error.length).toBeLessThan(80);
  });

  it('builds a plain object', () => {
    expect(tagsObject(parseTagList('v=1; k=rsa'))).toEqual({ v: '1', k: 'rsa' });
  });
});
