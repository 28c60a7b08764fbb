/** mailhealth-check's bimi part (mailhealth-part.ts). */
import { describe, expect, it } from 'vitest';
import { bimiFinding } from './mailhealth-part.js';
import type { BimiResult } from './bimi.js';

function bimi(status: BimiResult['status'], errors: string[] = []): BimiResult {
  return {
    domain: 'a.test',
    selector: 'default',
    found: status !== 'not-configured',
    record: '',
    queriedName: 'default._bimi.a.test',
    location: '',
    authority: '',
    svg: null,
    dmarcEligible: true,
    status,
    errors,
  };
}

describe('bimi as a part of mailhealth-check', () => {
  it('bimi: absent info, invalid warning, valid ok', () => {
    expect(bimiFinding(bimi('not-configured', [])).status).toBe('info');
    expect(bimiFinding(bimi('invalid', ['DMARC must be enforced'])).status).toBe('warning');
    expect(bimiFinding(bimi('valid', [])).status).toBe('ok');
  });
});
