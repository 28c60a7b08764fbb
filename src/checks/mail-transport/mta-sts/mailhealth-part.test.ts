/** mailhealth-check's mta-sts part (mailhealth-part.ts). */
import { describe, expect, it } from 'vitest';
import { mtaStsFinding } from './mailhealth-part.js';
import type { MtaStsResult } from './mta-sts.js';

function mtaSts(status: MtaStsResult['status'], errors: string[] = []): MtaStsResult {
  return {
    domain: 'a.test',
    found: status !== 'not-configured',
    record: status === 'not-configured' ? '' : 'v=STSv1; id=1',
    id: '1',
    policyUrl: 'https://mta-sts.a.test/.well-known/mta-sts.txt',
    policy: null,
    fetch: { status: null, error: null },
    mxMatches: [],
    omittedExchanges: 0,
    status,
    errors,
    warnings: [],
  };
}

describe('mta-sts as a part of mailhealth-check', () => {
  it('mta-sts: invalid a warning, not configured and testing info, enforce ok', () => {
    expect(mtaStsFinding(mtaSts('invalid', ['the policy fetch failed'])).summary).toMatch(/the policy fetch failed/);
    expect(mtaStsFinding(mtaSts('invalid', [])).status).toBe('warning');
    expect(mtaStsFinding(mtaSts('not-configured', [])).status).toBe('info');
    expect(mtaStsFinding(mtaSts('testing', [])).status).toBe('info');
    expect(mtaStsFinding(mtaSts('enforce', [])).status).toBe('ok');
  });
});
