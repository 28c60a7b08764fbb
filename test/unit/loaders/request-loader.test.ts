import { describe, expect, it } from 'vitest';
import { createRequestLoader } from '../../../src/loaders/request-loader.js';

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('request loader', () => {
  it('asks each distinct question once and shares answers and failures', async () => {
    const asked: string[] = [];
    const loader = createRequestLoader(
      async (q: { name: string }) => {
        asked.push(q.name);
        if (q.name === 'bad') throw new Error('upstream failed');
        return q.name.toUpperCase();
      },
      (q) => q.name,
    );
    const [a, b] = await Promise.all([loader.load({ name: 'x' }), loader.load({ name: 'x' })]);
    expect([a, b]).toEqual(['X', 'X']);
    await expect(loader.load({ name: 'bad' })).rejects.toThrow('upstream failed');
    await expect(loader.load({ name: 'bad' })).rejects.toThrow('upstream failed');
    expect(asked).toEqual(['x', 'bad']);
  });

  it('does not hold a repeated question back until an unrelated slow one is answered', async () => {
    const slow = deferred<string>();
    const loader = createRequestLoader(
      (q: string) => (q === 'slow' ? slow.promise : Promise.resolve(q)),
      (q) => q,
    );
    await loader.load('fast'); // answered
    // In one tick: a cache hit for "fast" and a new, slow question. With plain DataLoader 2 the hit
    // would resolve only after "slow" is answered.
    const hit = loader.load('fast');
    void loader.load('slow');
    const winner = await Promise.race([hit, new Promise((r) => setTimeout(() => r('held back'), 50))]);
    expect(winner).toBe('fast');
    slow.resolve('slow');
  });
});
