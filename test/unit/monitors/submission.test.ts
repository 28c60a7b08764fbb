/**
 * Reading a monitor submission and a PATCH (src/monitors/submission.ts): presets, every target validated
 * for every check by the injected check parser, and a 400 naming the field, index, check and reason.
 */
import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../../src/monitors/duration.js';
import type { MonitorTarget } from '../../../src/monitors/events.js';
import {
  MonitorSubmissionError,
  readMonitorPatch,
  readMonitorSubmission,
  type SubmissionRules,
} from '../../../src/monitors/submission.js';
import { watchSpecs } from '../../../src/graphql-server/watch-specs.js';

/** A stand-in for the REST routes' parsers: a target naming "bad" is refused, and every call is recorded. */
function rules(overrides: Partial<SubmissionRules> = {}) {
  const calls: [string, MonitorTarget][] = [];
  return {
    calls,
    rules: {
      minIntervalMs: 15 * 60_000,
      maxTargets: 1000,
      tools: watchSpecs(),
      validateTarget(check: string, target: MonitorTarget) {
        calls.push([check, target]);
        const text = typeof target === 'string' ? target : Object.values(target).join(' ');
        return text.includes('bad') ? `domain: ${JSON.stringify(text)} is not a valid host name` : null;
      },
      ...overrides,
    } satisfies SubmissionRules,
  };
}

async function refusal(body: unknown, r = rules().rules): Promise<string> {
  try {
    await readMonitorSubmission(body, r);
  } catch (e) {
    expect(e).toBeInstanceOf(MonitorSubmissionError);
    expect((e as MonitorSubmissionError).status).toBe(400);
    return (e as Error).message;
  }
  throw new Error('accepted');
}

const VALID = { name: 'shop', checks: ['tls'], targets: ['shop.example'], every: '15m' };

describe('monitor submission', () => {
  it('reads a whole submission, expanding presets, each check once, in the order given', async () => {
    const { rules: r, calls } = rules();
    const submission = await readMonitorSubmission(
      {
        name: 'shops',
        checks: ['tls', 'web', 'whois', 'mail'],
        targets: ['a.example', { domain: 'b.example', selector: 's1' }],
        params: { port: 25, dnssec: true },
        every: '6h',
        warnDays: 30,
        public: true,
        notify: { webhook: 'https://hooks.example/netdiag?x=1' },
      },
      r,
    );
    expect(submission).toEqual({
      name: 'shops',
      checks: ['tls-rating', 'website-health-check', 'http-rating', 'dnssec-chain', 'whois', 'mailhealth-check'],
      targets: ['a.example', { domain: 'b.example', selector: 's1' }],
      params: { port: '25', dnssec: 'true' },
      every: '6h',
      everyMs: 6 * 3_600_000,
      warnDays: 30,
      public: true,
      notify: { webhook: 'https://hooks.example/netdiag?x=1' },
    });
    // every target for every check
    expect(calls).toHaveLength(12);
  });

  it('has defaults for name, warnDays, public and notify', async () => {
    expect(
      await readMonitorSubmission(
        { checks: ['whois', 'ping'], targets: ['a.example', 'b.example'], every: '1d' },
        rules().rules,
      ),
    ).toMatchObject({
      name: 'whois, ping of 2 targets',
      warnDays: 21,
      public: false,
      notify: null,
    });
  });

  it("names the index, the check and the check's own reason for a bad target, and validates nothing after it", async () => {
    const { rules: r, calls } = rules();
    const message = await refusal(
      { ...VALID, checks: ['whois', 'tls-rating'], targets: ['a.example', 'bad..example', 'c.example'] },
      r,
    );
    expect(message).toBe('targets[1] (whois): domain: "bad..example" is not a valid host name');
    expect(calls).toHaveLength(3);
  });

  it.each([
    [null, 'the body must be a JSON object'],
    [
      { ...VALID, tool: 'x' },
      'unknown field "tool": a monitor takes name, checks, targets, params, every, notify, warnDays, public',
    ],
    [{ ...VALID, checks: [] }, 'checks: a list of 1 to 64'],
    [{ ...VALID, checks: ['tls-ratings'] }, 'checks[0]: unknown check "tls-ratings"'],
    [{ ...VALID, checks: ['whois', 'my-ip'] }, 'checks[1]: my-ip answers about the caller'],
    [{ ...VALID, checks: [3] }, 'checks[0]: a tool name or a preset'],
    [{ ...VALID, targets: [] }, 'targets: a list of 1 to 1000 targets is required'],
    [{ ...VALID, targets: 'a.example' }, 'targets: a list of 1 to 1000'],
    [{ ...VALID, targets: ['a.example', 7] }, 'targets[1]: a text (filling'],
    [{ ...VALID, targets: [{}] }, 'targets[0]: an object of at least one parameter'],
    [{ ...VALID, targets: [{ domain: { x: 1 } }] }, 'targets[0].domain: a parameter value is a text or a number'],
    [{ ...VALID, targets: [{ __proto__x: 'a' }] }, 'targets[0]: "__proto__x" is not a parameter name'],
    [{ ...VALID, params: [] }, 'params: an object of parameter names and values'],
    [{ ...VALID, every: undefined }, 'every: a duration such as "30s", "15m", "6h" or "1d"'],
    [{ ...VALID, every: '15 minutes' }, 'every: a duration'],
    [{ ...VALID, every: '5m' }, "every: 5m is shorter than this service's shortest interval, 15m"],
    [{ ...VALID, every: '40d' }, 'every: at most 31d'],
    [{ ...VALID, warnDays: 0 }, 'warnDays: a whole number of days from 1 to 365'],
    [{ ...VALID, warnDays: 2.5 }, 'warnDays: a whole number'],
    [{ ...VALID, public: 'yes' }, 'public: true or false'],
    [{ ...VALID, name: '' }, 'name: must not be empty'],
    [{ ...VALID, name: 'a\u0007b' }, 'name: contains the control character U+0007'],
    [{ ...VALID, name: 'x'.repeat(201) }, 'name: at most 200 characters'],
    [{ ...VALID, notify: { webhook: 'http://hooks.example/' } }, 'notify.webhook: https only'],
    [
      { ...VALID, notify: { webhook: 'https://user:pw@hooks.example/' } },
      'notify.webhook: must not contain a user name or password',
    ],
    [{ ...VALID, notify: { webhook: 'not a url' } }, 'notify.webhook: "not a url" is not a valid absolute URL'],
    [{ ...VALID, notify: { url: 'https://hooks.example/' } }, 'unknown field "url": notify takes webhook'],
    [{ ...VALID, notify: 'https://hooks.example/' }, 'notify must be a JSON object'],
  ])('refuses %j: %s', async (body, message) => {
    expect(await refusal(body)).toContain(message);
  });

  it('refuses more targets than monitors.maxTargets before validating any', async () => {
    const { rules: r, calls } = rules({ maxTargets: 3 });
    expect(await refusal({ ...VALID, targets: ['a', 'b', 'c', 'd'] }, r)).toBe(
      'targets: 4 targets; a monitor takes at most 3',
    );
    expect(calls).toEqual([]);
  });

  it('validates the largest submission, every target for every check, once each', async () => {
    const { rules: r, calls } = rules();
    const targets = Array.from({ length: 1000 }, (_, i) => `site${i}.example`);
    const submission = await readMonitorSubmission({ ...VALID, checks: ['web'], targets }, r);
    expect(submission.targets).toHaveLength(1000);
    expect(calls).toHaveLength(5000);
  });
});

describe('monitor PATCH', () => {
  const r = rules().rules;
  it('reads the fields PATCH may change', () => {
    expect(
      readMonitorPatch({ name: 'new', every: '1h', notify: null, warnDays: 7, paused: true, public: false }, r),
    ).toEqual({
      name: 'new',
      every: '1h',
      everyMs: 3_600_000,
      notify: null,
      warnDays: 7,
      paused: true,
      public: false,
    });
    expect(readMonitorPatch({ notify: { webhook: 'https://h.example/' } }, r)).toEqual({
      notify: { webhook: 'https://h.example/' },
    });
    expect(readMonitorPatch({}, r)).toEqual({});
  });

  it.each([
    [{ targets: ['x'] }, "targets: a monitor's targets cannot be changed"],
    [{ checks: ['tls'] }, "checks: a monitor's checks cannot be changed"],
    [{ id: 'x' }, 'unknown field "id": PATCH takes name, every, notify, warnDays, paused, public'],
    [{ paused: 'no' }, 'paused: true or false'],
    [{ every: '1m' }, 'every: 1m is shorter'],
    [[], 'the body must be a JSON object'],
  ])('refuses %j: %s', (body, message) => {
    expect(() => readMonitorPatch(body, r)).toThrow(message);
  });
});

describe('durations', () => {
  it('reads 30s, 15m, 6h and 1d, and nothing else', () => {
    expect(['30s', '15m', '6h', '1d'].map(parseDuration)).toEqual([30_000, 900_000, 21_600_000, 86_400_000]);
    for (const bad of ['0s', '15', 'm', '1.5h', '01m', '1w', ' 1m', '1m ', 15, null, '1234567s'])
      expect(parseDuration(bad)).toBeNull();
  });
});
