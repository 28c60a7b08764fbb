/**
 * http-rating's Observatory implementation against the package itself: for every case of
 * test/fixtures/observatory-corpus.json, the result, pass and modifier of each of the ten tests, the score,
 * the grade and the counts must be what @mdn/mdn-http-observatory 1.4.8 concluded over the same exchanges,
 * as scripts/observatory-corpus.ts recorded it (test/fixtures/observatory-expected.json).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { preloadLookup, type ChromiumPreloadFile } from './observatory/hsts-preload.js';
import { observatoryInputs, type ObservedSite } from './observatory/inputs.js';
import { OBSERVATORY_RESULTS, OBSERVATORY_TESTS } from './observatory/results.js';
import { isGradableStatus, observatoryScan } from './observatory/scan.js';
import type { RecordedCase } from '../../../../scripts/observatory-corpus.js';

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../../../test/fixtures/${name}`, import.meta.url), 'utf8'));
const corpus = fixture('observatory-corpus.json') as {
  preloaded: ChromiumPreloadFile['entries'];
  cases: { name: string; site: ObservedSite }[];
};
const expected = fixture('observatory-expected.json') as { package: string; cases: RecordedCase[] };
const preloaded = preloadLookup({ entries: corpus.preloaded });

describe('the Observatory corpus', () => {
  it('was recorded from 1.4.8 over every case', () => {
    expect(expected.package).toBe('@mdn/mdn-http-observatory@1.4.8');
    expect(expected.cases.map((c) => c.name)).toEqual(corpus.cases.map((c) => c.name));
  });

  it('gives every result of every test somewhere', () => {
    const seen = new Set(
      expected.cases.flatMap((c) => ('tests' in c ? Object.values(c.tests).map((t) => t.result) : [])),
    );
    // html-not-parseable needs a document jsdom cannot parse at all, which no HTML string is
    const missing = Object.keys(OBSERVATORY_RESULTS).filter((r) => !seen.has(r) && r !== 'html-not-parseable');
    expect(missing).toEqual([]);
  });

  for (const [index, { name, site }] of corpus.cases.entries()) {
    it(name, () => {
      const recorded = expected.cases[index]!;
      const inputs = observatoryInputs(site, preloaded);
      if ('error' in recorded) {
        expect(inputs === null || !isGradableStatus(inputs.auto.status)).toBe(true);
        return;
      }
      expect(inputs).not.toBeNull();
      expect(isGradableStatus(inputs!.auto.status)).toBe(true);
      const scan = observatoryScan(inputs!);
      const tests = Object.fromEntries(
        scan.tests.map((t) => [
          t.name,
          { result: t.result, pass: t.pass, scoreModifier: t.scoreModifier, description: t.description },
        ]),
      );
      expect(Object.keys(recorded.tests).sort()).toEqual([...OBSERVATORY_TESTS].sort());
      expect(tests).toEqual(recorded.tests);
      expect({
        algorithmVersion: scan.algorithmVersion,
        score: scan.score,
        grade: scan.grade,
        testsPassed: scan.testsPassed,
        testsFailed: scan.testsFailed,
        testsQuantity: scan.testsQuantity,
      }).toEqual({
        algorithmVersion: recorded.algorithmVersion,
        score: recorded.score,
        grade: recorded.grade,
        testsPassed: recorded.testsPassed,
        testsFailed: recorded.testsFailed,
        testsQuantity: recorded.testsQuantity,
      });
    });
  }
});
