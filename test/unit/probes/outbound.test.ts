import { describe, expect, it } from 'vitest';
import { createCoalescer, createLimiter } from '../../../src/probes/outbound.js';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('outbound limiter', () => {
  it('runs at most its capacity at once and hands slots over in arrival order', async () => {
    const limiter = createLimiter(2);
    const gates = [deferred<void>(), deferred<void>(), deferred<void>(), deferred<void>()];
    const order: number[] = [];
    const signal = new AbortController().signal;
    const runs = gates.map((gate, i) =>
      limiter.run(
        async () => {
          order.push(i);
          await gate.promise;
        },
        signal,
        'x',
      ),
    );
    await Promise.resolve();
    expect([limiter.active, limiter.waiting]).toEqual([2, 2]);
    gates[1]!.resolve();
    await runs[1];
    await Promise.resolve();
    expect(order).toEqual([0, 1, 2]);
    for (const gate of gates) gate.resolve();
    await Promise.all(runs);
    expect(order).toEqual([0, 1, 2, 3]);
    expect([limiter.active, limiter.waiting]).toEqual([0, 0]);
  });

  it('lets a waiter whose request ends leave the queue with ABORTED, without taking a slot', async () => {
    const limiter = createLimiter(1);
    const gate = deferred<void>();
    const first = limiter.run(() => gate.promise, new AbortController().signal, 'a TCP connect');
    const controller = new AbortController();
    const second = limiter.run(async () => 'ran', controller.signal, 'a TCP connect');
    controller.abort();
    await expect(second).rejects.toMatchObject({ kind: 'ABORTED', message: /waited for a free outbound slot/ });
    expect(limiter.waiting).toBe(0);
    gate.resolve();
    await first;
    expect(limiter.active).toBe(0);
  });
});

describe('coalescer', () => {
  it('asks an identical question in flight once and gives every caller the answer or the error', async () => {
    const coalescer = createCoalescer();
    const signal = new AbortController().signal;
    let asked = 0;
    const answer = deferred<string>();
    const ask = () => {
      asked++;
      return answer.promise;
    };
    const callers = [1, 2, 3].map(() => coalescer.run('q', ask, signal, 'q'));
    expect(coalescer.size).toBe(1);
    answer.resolve('A');
    expect(await Promise.all(callers)).toEqual(['A', 'A', 'A']);
    expect(asked).toBe(1);
    expect(coalescer.size).toBe(0);

    // once settled, the next caller asks again (nothing is cached here)
    const failure = deferred<string>();
    const again = [coalescer.run('q', () => failure.promise, signal, 'q'), coalescer.run('q', ask, signal, 'q')];
    failure.reject(new Error('SERVFAIL'));
    for (const caller of again) await expect(caller).rejects.toThrow('SERVFAIL');
    expect(asked).toBe(1);
  });

  it('lets one caller stop waiting on its own signal while the others get the answer', async () => {
    const coalescer = createCoalescer();
    const answer = deferred<string>();
    const leaving = new AbortController();
    const left = coalescer.run('q', () => answer.promise, leaving.signal, 'the DNS question x A');
    const staying = coalescer.run('q', () => answer.promise, new AbortController().signal, 'q');
    leaving.abort();
    await expect(left).rejects.toMatchObject({ kind: 'ABORTED' });
    answer.resolve('A');
    expect(await staying).toBe('A');
  });
});
