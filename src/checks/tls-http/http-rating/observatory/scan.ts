/**
 * The Observatory's scan over observed exchanges: the ten tests of algorithm version 4, each result's
 * modifier and description (results.ts), the counts and the grade (grade.ts). Test names and result names
 * are the package's.
 */
import { contentSecurityPolicyTest } from './csp.js';
import { cookiesTest } from './cookies.js';
import { crossOriginResourcePolicyTest } from './corp.js';
import { crossOriginResourceSharingTest } from './cors.js';
import { scoreOf } from './grade.js';
import { strictTransportSecurityTest } from './hsts.js';
import type { ObservatoryInputs } from './inputs.js';
import { redirectionTest } from './redirection.js';
import { referrerPolicyTest } from './referrer-policy.js';
import {
  OBSERVATORY_ALGORITHM_VERSION,
  OBSERVATORY_RESULTS,
  OBSERVATORY_TESTS,
  type ObservatoryTestName,
  type TestOutcome,
} from './results.js';
import { subresourceIntegrityTest } from './sri.js';
import { xContentTypeOptionsTest } from './x-content-type-options.js';
import { xFrameOptionsTest } from './x-frame-options.js';

export interface ObservatoryTest {
  name: ObservatoryTestName;
  pass: boolean;
  result: string;
  scoreModifier: number;
  description: string;
}

export interface ObservatoryScan {
  algorithmVersion: number;
  score: number;
  grade: string;
  testsPassed: number;
  testsFailed: number;
  testsQuantity: number;
  tests: ObservatoryTest[];
}

function outcomes(inputs: ObservatoryInputs): Record<ObservatoryTestName, TestOutcome> {
  const csp = contentSecurityPolicyTest(inputs);
  const hsts = strictTransportSecurityTest(inputs);
  return {
    'content-security-policy': csp,
    cookies: cookiesTest(inputs, hsts.pass),
    'cross-origin-resource-sharing': crossOriginResourceSharingTest(inputs),
    'cross-origin-resource-policy': crossOriginResourcePolicyTest(inputs),
    redirection: redirectionTest(inputs),
    'referrer-policy': referrerPolicyTest(inputs),
    'strict-transport-security': hsts,
    'subresource-integrity': subresourceIntegrityTest(inputs),
    'x-content-type-options': xContentTypeOptionsTest(inputs),
    'x-frame-options': xFrameOptionsTest(inputs, csp),
  };
}

export function observatoryScan(inputs: ObservatoryInputs): ObservatoryScan {
  const byName = outcomes(inputs);
  const tests = OBSERVATORY_TESTS.map((name): ObservatoryTest => {
    const { result, pass } = byName[name];
    const { modifier, description } = OBSERVATORY_RESULTS[result];
    return { name, pass, result, scoreModifier: modifier, description };
  });
  const { score, grade } = scoreOf(tests.map((t) => t.scoreModifier));
  const testsPassed = tests.filter((t) => t.pass).length;
  return {
    algorithmVersion: OBSERVATORY_ALGORITHM_VERSION,
    score,
    grade,
    testsPassed,
    testsFailed: tests.length - testsPassed,
    testsQuantity: tests.length,
    tests,
  };
}

/** The package grades only these answers (src/scanner/index.js): 2xx, 3xx, 401 and 403. */
export function isGradableStatus(status: number): boolean {
  return status >= 200 && (status < 400 || status === 401 || status === 403);
}
