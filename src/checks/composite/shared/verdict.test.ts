import { describe, expect, it } from 'vitest';
import {
  listInProse,
  verdictOf,
  verdictStatusOf,
  worstVerdictStatus,
  type HealthCheckStatus,
  type VerdictInput,
} from './verdict.js';

const check = (label: string, status: HealthCheckStatus, summary = `${label} summary.`): VerdictInput => ({
  label,
  status,
  summary,
});

describe('verdictStatusOf and worstVerdictStatus (decisions §4)', () => {
  it('counts error as warning and info as ok', () => {
    expect((['ok', 'info', 'warning', 'critical', 'error'] as const).map(verdictStatusOf)).toEqual([
      'ok',
      'ok',
      'warning',
      'critical',
      'warning',
    ]);
  });

  it('lets the worst check win', () => {
    expect(worstVerdictStatus([])).toBe('ok');
    expect(worstVerdictStatus(['ok', 'info'])).toBe('ok');
    expect(worstVerdictStatus(['ok', 'error', 'info'])).toBe('warning');
    expect(worstVerdictStatus(['warning', 'critical', 'error'])).toBe('critical');
  });
});

describe('listInProse', () => {
  it('joins with commas and a final "and"', () => {
    expect(listInProse([])).toBe('');
    expect(listInProse(['A'])).toBe('A');
    expect(listInProse(['A', 'B'])).toBe('A and B');
    expect(listInProse(['A', 'B', 'C'])).toBe('A, B and C');
  });
});

describe('verdictOf', () => {
  it('all ok: says so and counts the checks', () => {
    expect(verdictOf([check('DNS', 'ok'), check('Ping', 'ok')])).toEqual({
      status: 'ok',
      headline: 'All 2 checks passed',
      summary: 'No problems found in 2 checks.',
    });
  });

  it('ok with notes: quotes the notes', () => {
    expect(verdictOf([check('DNS', 'info', 'IPv4 only; add AAAA'), check('Ping', 'ok')])).toEqual({
      status: 'ok',
      headline: 'All 2 checks passed, with 1 note',
      summary: 'No problems found; worth knowing: DNS: IPv4 only; add AAAA.',
    });
  });

  it('warning: names the warnings and the checks that could not run, warnings first in the summary', () => {
    const verdict = verdictOf([
      check('Location', 'error', 'This check could not run (time-out).'),
      check('Security headers', 'warning', 'Only 2 of 5 security headers are set; add x.'),
      check('DNS', 'info'),
      check('Ping', 'ok'),
    ]);
    expect(verdict).toEqual({
      status: 'warning',
      headline: '1 warning (Security headers) and 1 check could not run (Location)',
      summary:
        'Security headers: Only 2 of 5 security headers are set; add x. Location: This check could not run (time-out).',
    });
  });

  it('critical: critical problems first, at most three findings quoted, the rest counted', () => {
    const verdict = verdictOf([
      check('A', 'warning'),
      check('B', 'critical'),
      check('C', 'warning'),
      check('D', 'critical'),
      check('E', 'error'),
    ]);
    expect(verdict.status).toBe('critical');
    expect(verdict.headline).toBe('2 critical problems (B and D), 2 warnings (A and C) and 1 check could not run (E)');
    expect(verdict.summary).toBe('B: B summary. D: D summary. A: A summary. 2 more findings below.');
  });

  it('an error alone makes a warning verdict', () => {
    expect(verdictOf([check('Ping', 'error'), check('DNS', 'ok')])).toMatchObject({
      status: 'warning',
      headline: '1 check could not run (Ping)',
    });
  });
});
