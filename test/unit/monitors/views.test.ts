/** The monitor as the API answers it (src/monitors/views.ts). */
import { describe, expect, it } from 'vitest';
import { PENDING_STATE } from '../../../src/monitors/evaluate.js';
import { NEW_PROGRESS } from '../../../src/monitors/store/records.js';
import { monitorView, pairStates, targetIndexOf } from '../../../src/monitors/views.js';
import { monitorRecord } from './store-fixture.js';

describe('monitor views', () => {
  it('counts targets, links the badge only of a public monitor, and shows either pause', () => {
    const view = monitorView(monitorRecord(), NEW_PROGRESS);
    expect(view).toMatchObject({ id: 'mon_test', targets: 2, paused: false, runs: 0, notify: null });
    expect(view.links).toEqual({
      self: '/api/v1/monitors/mon_test',
      history: '/api/v1/monitors/mon_test/history',
      events: '/api/v1/monitors/mon_test/events',
    });
    expect(monitorView(monitorRecord({ public: true }), null).links.badge).toBe('/badge/mon_test/tls-rating.svg');
    expect(monitorView(monitorRecord(), { ...NEW_PROGRESS, allowancePaused: true }).paused).toBe(true);
    expect(
      monitorView(monitorRecord({ notify: { webhook: 'https://h.example/' } }), {
        ...NEW_PROGRESS,
        delivery: { deliveredSeq: 3, status: 'failing', lastError: 'HTTP 500', failedEvents: 1 },
      }).notify,
    ).toEqual({ webhook: 'https://h.example/', status: 'failing', lastError: 'HTTP 500', failedEvents: 1 });
  });

  it('has one state per target × check, pending until it runs', () => {
    const ran = {
      ...PENDING_STATE,
      status: 'ok' as const,
      summary: 'fine.',
      grade: 'A',
      lastRunAt: 'x',
      lastChangeAt: null,
    };
    const states = pairStates(monitorRecord(), [{ targetIndex: 1, check: 'tls-rating', state: ran }]);
    expect(states.map((s) => `${s.target} ${s.check} ${s.status}`)).toEqual([
      'a.example tls-rating pending',
      'a.example whois pending',
      'b.example tls-rating ok',
      'b.example whois pending',
    ]);
    expect(states[2]).toEqual({
      target: 'b.example',
      check: 'tls-rating',
      status: 'ok',
      summary: 'fine.',
      grade: 'A',
      lastRunAt: 'x',
      lastChangeAt: null,
    });
  });

  it('finds the target a ?target= names', () => {
    const monitor = monitorRecord({
      targets: ['a.example', { domain: 'b.example', selector: 's1' }, { host: 'mx.example' }],
    });
    expect(
      ['a.example', 'domain=b.example selector=s1', 'mx.example', 'b.example', 'x'].map((t) =>
        targetIndexOf(monitor, t),
      ),
    ).toEqual([0, 1, 2, null, null]);
  });
});
