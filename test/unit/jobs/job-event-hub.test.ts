/**
 * The event hub (src/jobs/job-event-hub.ts): streams are pushed, so many streams of one job cost one read
 * per change; a key's streams are capped per process; an ended job's `end` closes its streams.
 */
import { describe, expect, it } from 'vitest';
import { localJobBus } from '../../../src/jobs/job-bus.js';
import { createJobEventHub } from '../../../src/jobs/job-event-hub.js';
import { newJobRecord, type JobRecord } from '../../../src/jobs/job-record.js';

function job(): JobRecord {
  const identity = { id: 'k', kind: 'static' as const };
  return newJobRecord(
    { identity, tool: 'mx-lookup', total: 10, params: {}, callbackUrl: null, itemCost: 3, chargeId: null },
    Date.now(),
  );
}

/** Reads a stream's text as it comes, up to a marker each time. */
function follower(stream: ReadableStream<Uint8Array>) {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let all = '';
  return async (until: string): Promise<string> => {
    while (!all.includes(until)) {
      const { done, value } = await reader.read();
      if (done) break;
      all += decoder.decode(value, { stream: true });
    }
    return all;
  };
}

describe('job event hub', () => {
  it('reads a job once per change for all its streams, and ends them with the job', async () => {
    const bus = localJobBus();
    const record = job();
    let reads = 0;
    const hub = createJobEventHub({
      bus,
      read: async () => {
        reads++;
        return record;
      },
      maxStreamsPerKey: 1000,
      onError: (e) => {
        throw e;
      },
    });
    const streams = Array.from({ length: 200 }, () =>
      follower(hub.open(record, null, new AbortController().signal) as ReadableStream<Uint8Array>),
    );
    expect(hub.size).toBe(200);
    const firsts = await Promise.all(streams.map((read) => read('\n\n')));
    expect(firsts.every((t) => t.startsWith('event: progress\nid: 0\n'))).toBe(true);
    expect(reads).toBe(0);
    record.done = 10;
    record.status = 'done';
    record.finishedAt = new Date().toISOString();
    bus.changed({ id: record.id, ended: true });
    const ends = await Promise.all(streams.map((read) => read('event: end')));
    expect(ends.every((t) => t.includes('event: end\nid: 10\n'))).toBe(true);
    expect(reads).toBe(1);
    expect(hub.size).toBe(0);
    hub.close();
  });

  it('refuses a key more than its streams, and frees a place when one closes', () => {
    const hub = createJobEventHub({
      bus: localJobBus(),
      read: async () => null,
      maxStreamsPerKey: 2,
      onError: () => undefined,
    });
    const record = job();
    const first = new AbortController();
    hub.open(record, null, first.signal);
    hub.open(record, null, new AbortController().signal);
    expect(hub.open(record, null, new AbortController().signal)).toBe('too-many');
    first.abort();
    expect(hub.open(record, null, new AbortController().signal)).not.toBe('too-many');
    hub.close();
  });
});
