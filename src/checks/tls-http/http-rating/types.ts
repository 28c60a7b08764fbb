/** http-rating: object types (the check itself is in ./check.ts). */
import type { HttpRatingResult } from './rating.js';
import type { ObservatoryTest } from './observatory/scan.js';
import { builder } from '../../../graphql/builder.js';

export const HttpRatingTest = builder.objectRef<ObservatoryTest>('HttpRatingTest').implement({
  description: 'One test of the MDN HTTP Observatory (algorithm version 4), named and judged as the Observatory does.',
  fields: (t) => ({
    name: t.exposeString('name', {
      description:
        'The test: content-security-policy, cookies, cross-origin-resource-sharing, cross-origin-resource-policy, redirection, referrer-policy, strict-transport-security, subresource-integrity, x-content-type-options or x-frame-options.',
    }),
    pass: t.exposeBoolean('pass', { description: 'Whether the Observatory counts the result as a pass.' }),
    result: t.exposeString('result', {
      description: 'The result as the Observatory spells it, e.g. csp-not-implemented, hsts-preloaded.',
    }),
    scoreModifier: t.exposeInt('scoreModifier', {
      description:
        'Added to the score of 100; bonuses (positive) count only when the score without them is at least 90.',
    }),
    description: t.exposeString('description', {
      description: "The Observatory's description of the result, as text.",
    }),
  }),
});

export const HttpRating = builder.objectRef<HttpRatingResult>('HttpRating').implement({
  fields: (t) => ({
    url: t.exposeString('url', {
      description:
        'The URL the graded session started from: https://host/ (the path and query of a URL given), or http://host/ when https gave no answer.',
    }),
    finalUrl: t.exposeString('finalUrl', { description: 'The URL of the graded response, after redirects.' }),
    statusCode: t.exposeInt('statusCode', { description: 'Status of the graded response.' }),
    algorithmVersion: t.exposeInt('algorithmVersion', { description: "The Observatory's algorithm version: 4." }),
    score: t.exposeInt('score', {
      nullable: true,
      description:
        '100 plus every modifier (bonuses only from 90 up), never below 0; may pass 100. Null when not graded.',
    }),
    grade: t.exposeString('grade', {
      nullable: true,
      description:
        'A+ … F from the score (steps of 5: 100 A+, 90 A, 85 A-, 80 B+, …, below 25 F). Null when not graded.',
    }),
    testsPassed: t.exposeInt('testsPassed', { nullable: true }),
    testsFailed: t.exposeInt('testsFailed', { nullable: true }),
    testsQuantity: t.exposeInt('testsQuantity', { nullable: true, description: '10; null when not graded.' }),
    tests: t.field({
      type: [HttpRatingTest],
      description: 'The ten tests in alphabetical order; empty when not graded.',
      resolve: (r) => r.tests,
    }),
    error: t.exposeString('error', {
      nullable: true,
      description: 'Why the answer was not graded (a status other than 2xx, 3xx, 401 or 403); null when graded.',
    }),
    httpsError: t.exposeString('httpsError', {
      nullable: true,
      description:
        'Why the session from https:// gave no answer (the http session is then graded); null when it answered.',
    }),
    httpError: t.exposeString('httpError', {
      nullable: true,
      description: 'Why the session from http:// gave no answer (redirection then needs none); null when it answered.',
    }),
  }),
});
