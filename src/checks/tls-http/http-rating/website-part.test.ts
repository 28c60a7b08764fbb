/**
 * website-health-check's http-rating part (website-part.ts): the summaries that name the failed tests;
 * the details are the single check's data, unchanged.
 */
import { describe, expect, it } from 'vitest';
import { httpRatingFinding } from './website-part.js';
import type { HttpRatingResult } from './rating.js';

function httpRating(overrides: Partial<HttpRatingResult>): HttpRatingResult {
  return {
    url: 'https://www.example.org/',
    finalUrl: 'https://www.example.org/',
    statusCode: 200,
    algorithmVersion: 4,
    score: 105,
    grade: 'A+',
    testsPassed: 10,
    testsFailed: 0,
    testsQuantity: 10,
    tests: [],
    error: null,
    httpsError: null,
    httpError: null,
    ...overrides,
  };
}

const failedTest = (name: string) =>
  ({ name, pass: false, result: `${name}-not-implemented`, scoreModifier: -25, description: '' }) as const;

describe('http-rating', () => {
  it('A+ is ok, and the details are the rating itself', () => {
    const data = httpRating({});
    expect(httpRatingFinding(data)).toEqual({
      status: 'ok',
      summary: 'The MDN HTTP Observatory grades https://www.example.org/ A+ (score 105, 10 of 10 tests passed).',
      details: data,
    });
  });

  it('B is a warning naming the failed tests; F critical', () => {
    const finding = httpRatingFinding(
      httpRating({
        grade: 'B',
        score: 75,
        testsPassed: 9,
        testsFailed: 1,
        tests: [failedTest('content-security-policy') as never],
      }),
    );
    expect(finding).toMatchObject({
      status: 'warning',
      summary:
        'The MDN HTTP Observatory grades https://www.example.org/ B (score 75, 9 of 10 tests passed); failed: content-security-policy; set the headers these tests read (http-rating says what each found).',
    });
    expect(httpRatingFinding(httpRating({ grade: 'F', score: 0 })).status).toBe('critical');
  });

  it('an answer that was not graded is info with the reason', () => {
    const error =
      'https://www.example.org/ answered 404 Not Found: the Observatory grades only 2xx, 3xx, 401 and 403 answers';
    const data = httpRating({
      statusCode: 404,
      score: null,
      grade: null,
      testsPassed: null,
      testsFailed: null,
      testsQuantity: null,
      error,
    });
    expect(httpRatingFinding(data)).toEqual({
      status: 'info',
      summary: `The MDN HTTP Observatory does not grade this answer (${error}).`,
      details: data,
    });
  });
});
