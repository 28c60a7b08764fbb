/**
 * One run of one target × check (src/monitors/evaluate.ts), over recorded answers: the baseline, `changed`
 * with its paths, severity and sentence, `failing` / `recovered`, `expiring` at warnDays, 7 and 1, and
 * `paused` / `resumed` (src/monitors/allowance.ts).
 */
import { describe, expect, it } from 'vitest';
import { chargeOutcome } from '../../../src/monitors/allowance.js';
import { evaluateRun, type PairState, type RunOutcome } from '../../../src/monitors/evaluate.js';
import { thresholdsOf } from '../../../src/monitors/expiry.js';
import { watchSpecs } from '../../../src/graphql-server/watch-specs.js';

const WATCH_SPECS = watchSpecs();
import { example, noisy } from './examples.js';

const DAY = 86_400_000;
const T0 = new Date('2026-12-01T00:00:00.000Z');

function answer(data: unknown): RunOutcome {
  return { ok: true, status: 200, data: data as any };
}
const failure: RunOutcome = {
  ok: false,
  status: 504,
  error: { code: 'UPSTREAM_TIMEOUT', message: 'the server did not answer within 10 s' },
};

/** Runs a tool over outcomes in turn, one day apart; returns the events of each run and the last state. */
function runs(
  tool: string,
  outcomes: RunOutcome[],
  options: { warnDays?: number; start?: Date; stepMs?: number } = {},
) {
  let state: PairState | null = null;
  const events = outcomes.map((outcome, i) => {
    const now = new Date((options.start ?? T0).getTime() + i * (options.stepMs ?? DAY));
    const result = evaluateRun(state, outcome, {
      spec: WATCH_SPECS.get(tool)!,
      target: 'example.test',
      runId: `run-${i}`,
      warnDays: options.warnDays ?? 21,
      now,
    });
    state = result.state;
    return result.events;
  });
  return { events, state: state! };
}

describe('changed', () => {
  it('the first run is a baseline; the same answer again, in another order with other timings, is no event', () => {
    const { events, state } = runs('tls-rating', [answer(example('tls-rating')), answer(noisy(example('tls-rating')))]);
    expect(events).toEqual([[], []]);
    expect(state).toMatchObject({ status: 'ok', grade: 'A+', lastChangeAt: null, lastRunId: 'run-1' });
  });

  it('a change is one event naming each changed path with both values, its severity and a sentence', () => {
    const dropped = example('tls-rating');
    dropped.grade.letter = 'C';
    dropped.protocols[2].result = 'supported';
    const { events, state } = runs('tls-rating', [answer(example('tls-rating')), answer(dropped)]);
    expect(events[1]).toEqual([
      {
        at: '2026-12-02T00:00:00.000Z',
        target: 'example.test',
        check: 'tls-rating',
        kind: 'changed',
        severity: 'critical',
        summary: 'The tls-rating of example.test changed: grade.letter went from "A+" to "C" (and 1 more change).',
        changes: [
          { path: 'grade.letter', before: 'A+', after: 'C' },
          { path: 'protocols[TLSv1.1]', before: 'not-supported', after: 'supported' },
        ],
      },
    ]);
    expect(state).toMatchObject({ status: 'warning', grade: 'C', lastChangeAt: '2026-12-02T00:00:00.000Z' });
  });

  it('the sentence leads with the most severe change', () => {
    const changed = example('mailhealth-check');
    changed.checks[1].details.record = 'v=spf1 ~all';
    changed.checks.find((c: any) => c.id === 'blacklist').status = 'critical';
    const { events } = runs('mailhealth-check', [answer(example('mailhealth-check')), answer(changed)]);
    expect(events[1]![0]).toMatchObject({ severity: 'critical' });
    expect(events[1]![0]!.summary).toMatch(
      /^The mailhealth-check of example.test changed: parts\[blacklist\] went from "ok" to "critical"/,
    );
  });

  it('a change back is another event, of severity info when it improves', () => {
    const worse = example('dnssec-chain');
    const better = example('dnssec-chain');
    Object.assign(better, { status: 'secure', brokenLink: null });
    for (const zone of better.chain) zone.status = 'secure';
    const { events } = runs('dnssec-chain', [answer(better), answer(worse), answer(better)]);
    expect(events.map((e) => e.map((x) => `${x.kind} ${x.severity}`))).toEqual([
      [],
      ['changed critical'],
      ['changed info'],
    ]);
  });
});

describe('failing and recovered', () => {
  it('an error answer twice in a row is one failing event; the next answer is recovered', () => {
    const data = example('ssl-checker');
    const { events, state } = runs('ssl-checker', [answer(data), failure, failure, failure, answer(data)], {
      warnDays: 1,
    });
    expect(events.map((e) => e.map((x) => x.kind))).toEqual([[], [], ['failing'], [], ['recovered']]);
    expect(events[2]![0]).toMatchObject({
      severity: 'warning',
      summary: expect.stringContaining('did not answer within 10 s'),
    });
    expect(state).toMatchObject({ status: 'ok', failures: 0 });
  });

  it('one error answer between two answers is no event, and keeps the last projection', () => {
    const data = example('ssl-checker');
    const { events } = runs('ssl-checker', [answer(data), failure, answer(noisy(data))], { warnDays: 1 });
    expect(events).toEqual([[], [], []]);
  });

  it('an error answer shows as the state, with its message', () => {
    const { state } = runs('whois', [answer(example('whois')), failure]);
    expect(state).toMatchObject({ status: 'error', summary: failure.ok ? '' : failure.error.message, failures: 1 });
    expect(state.projection).not.toBeNull();
  });

  it('a check failing from its first run has no baseline until its first answer', () => {
    const changed = example('whois');
    changed.registrar = 'Other';
    const { events } = runs('whois', [failure, failure, answer(example('whois')), answer(changed)]);
    expect(events.map((e) => e.map((x) => x.kind))).toEqual([[], ['failing'], ['recovered'], ['changed']]);
  });
});

describe('expiring', () => {
  /** An ssl-checker answer whose certificate ends `days` after T0. */
  function certificateEnding(days: number, at = T0) {
    const data = example('ssl-checker');
    data.expiryDate = new Date(at.getTime() + days * DAY).toISOString();
    return data;
  }

  it('thresholds: warnDays, then 7 and 1 where nearer', () => {
    expect(thresholdsOf(21)).toEqual([21, 7, 1]);
    expect(thresholdsOf(7)).toEqual([7, 1]);
    expect(thresholdsOf(3)).toEqual([3, 1]);
    expect(thresholdsOf(1)).toEqual([1]);
  });

  it('is announced once at warnDays, again at 7 and at 1, and never in between', () => {
    const data = certificateEnding(25);
    // daily runs from 25 days before the end until 2 days after it
    const { events } = runs(
      'ssl-checker',
      Array.from({ length: 28 }, () => answer(data)),
    );
    const expiring = events.flatMap((e, day) => e.filter((x) => x.kind === 'expiring').map((x) => ({ day, x })));
    expect(expiring.map(({ day, x }) => [day, x.severity])).toEqual([
      [4, 'info'],
      [18, 'warning'],
      [24, 'critical'],
    ]);
    expect(expiring[0]!.x.summary).toBe(
      `The certificate of good.lab.test ends in 21 days, on ${data.expiryDate.slice(0, 10)}.`,
    );
    expect(expiring[2]!.x.summary).toBe(
      `The certificate of good.lab.test ends in 1 day, on ${data.expiryDate.slice(0, 10)}.`,
    );
  });

  it('a first run near the end is one event, for the nearest threshold crossed', () => {
    const { events } = runs('ssl-checker', [answer(certificateEnding(3)), answer(certificateEnding(3))]);
    expect(events[0]).toMatchObject([{ kind: 'expiring', severity: 'warning' }]);
    expect(events[1]).toEqual([]);
  });

  it('a renewed certificate (a new expiry date) starts over', () => {
    const old = certificateEnding(5);
    const renewed = certificateEnding(5 + 90);
    const renewedLate = certificateEnding(10);
    const { events } = runs('ssl-checker', [answer(old), answer(renewed), answer(renewedLate)]);
    expect(events.map((e) => e.map((x) => x.kind).sort())).toEqual([
      ['expiring'],
      ['changed'],
      ['changed', 'expiring'],
    ]);
  });

  it('an ended registration says so; whois uses its own warnDays', () => {
    const data = example('whois');
    Object.assign(data, {
      notFound: false,
      registrar: 'R',
      expiryDate: new Date(T0.getTime() - 2 * DAY).toISOString(),
    });
    const { events } = runs('whois', [answer(data)], { warnDays: 30 });
    expect(events[0]).toMatchObject([
      {
        kind: 'expiring',
        severity: 'critical',
        summary: expect.stringMatching(/^The registration of nothing\.rdaptest ended on /),
      },
    ]);
  });

  it("mailhealth-check announces each MX host's STARTTLS certificate once", () => {
    const data = example('mailhealth-check');
    for (const part of data.checks.filter((c: any) => c.id === 'starttls'))
      part.details.tls.certificate.validTo = new Date(T0.getTime() + 6 * DAY).toISOString();
    const { events } = runs('mailhealth-check', [answer(data), answer(data)]);
    expect(events[0]!.map((e) => e.summary)).toEqual([
      expect.stringMatching(/^The STARTTLS certificate of mx1\.lab\.test ends in 6 days/),
      expect.stringMatching(/^The STARTTLS certificate of mx2\.lab\.test ends in 6 days/),
    ]);
    expect(events[1]).toEqual([]);
  });
});

describe('paused and resumed', () => {
  it('one event when a run cannot be charged, one when a run can again, none in between', () => {
    const now = T0;
    expect(chargeOutcome(false, true, now)).toEqual({ paused: false, events: [] });
    const paused = chargeOutcome(false, false, now);
    expect(paused).toMatchObject({
      paused: true,
      events: [{ kind: 'paused', severity: 'warning', target: null, check: null }],
    });
    expect(chargeOutcome(true, false, now)).toEqual({ paused: true, events: [] });
    expect(chargeOutcome(true, true, now)).toMatchObject({
      paused: false,
      events: [{ kind: 'resumed', severity: 'info' }],
    });
  });
});
