/** A runner's pushes (src/jobs/job-runner.ts): at most one a second per job, the latest state; an end at once. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { throttledChanges } from '../../../src/jobs/job-runner.js';

describe('throttled changes', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] }));
  afterEach(() => vi.useRealTimers());

  it('pushes the first change at once, the next ones once a second, and an end or a cancellation at once', () => {
    const pushed: [string, boolean][] = [];
    const changes = throttledChanges((id, ended) => pushed.push([id, ended]));
    changes.changed('a', false);
    changes.changed('a', false);
    changes.changed('a', false);
    changes.changed('b', false);
    expect(pushed).toEqual([
      ['a', false],
      ['b', false],
    ]);
    vi.advanceTimersByTime(1_000);
    expect(pushed).toEqual([
      ['a', false],
      ['b', false],
      ['a', false],
    ]);
    changes.changed('b', false, true);
    changes.changed('a', true);
    expect(pushed.slice(3)).toEqual([
      ['b', false],
      ['a', true],
    ]);
    vi.advanceTimersByTime(5_000);
    expect(pushed).toHaveLength(5);
    changes.stop();
  });
});
