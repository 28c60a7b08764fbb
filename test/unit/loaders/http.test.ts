import { describe, expect, it } from 'vitest';
import { httpFetchKey } from '../../../src/loaders/http.js';

describe('httpFetchKey', () => {
  it('is one question for URLs that differ only in the fragment or in WHATWG normalisation', () => {
    const key = (url: string, readBody: false | 'head' = false) => httpFetchKey({ url: new URL(url), readBody });
    expect(key('https://Example.COM:443/a/../b#top')).toBe(key('https://example.com/b'));
    expect(key('http://example.com/b?x=1')).not.toBe(key('http://example.com/b'));
    expect(key('http://example.com/')).not.toBe(key('https://example.com/'));
  });

  it('keeps a fetch that reads the head apart from one that reads no body', () => {
    const url = new URL('https://example.com/');
    expect(httpFetchKey({ url, readBody: 'head' })).not.toBe(httpFetchKey({ url, readBody: false }));
  });
});
