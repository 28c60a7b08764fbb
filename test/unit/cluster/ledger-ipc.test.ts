/**
 * The ledgers of workers asking the primary over IPC (src/cluster/ledger-ipc.ts), over in-process
 * channels that deliver asynchronously as Node's IPC does and count the messages.
 */
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createIpcLedgers, serveLedgers, type Channel } from '../../../src/cluster/ledger-ipc.js';
import { createMemoryQuotaStore, type QuotaStore } from '../../../src/platform/quota.js';

interface Pipe {
  readonly worker: Channel;
  readonly primary: Channel;
  /** messages sent by the worker */
  readonly sent: unknown[];
  /** when false, the primary never receives anything */
  delivering: boolean;
}

/** A worker's channel and the primary's end of it; messages cross through a JSON copy, later. */
function pipe(): Pipe {
  const toPrimary = new EventEmitter();
  const toWorker = new EventEmitter();
  const state: Pipe = {
    sent: [],
    delivering: true,
    worker: {
      send: (m) => {
        state.sent.push(m);
        const copy = JSON.parse(JSON.stringify(m));
        if (state.delivering) setImmediate(() => toPrimary.emit('message', copy));
        return true;
      },
      on: (event, listener) => toWorker.on(event, listener),
    },
    primary: {
      send: (m) => {
        const copy = JSON.parse(JSON.stringify(m));
        setImmediate(() => toWorker.emit('message', copy));
        return true;
      },
      on: (event, listener) => toPrimary.on(event, listener),
    },
  };
  return state;
}

function primaryWith(quota: QuotaStore, pipes: Pipe[]): void {
  const stores = {
    quota,
    issue: createMemoryQuotaStore({ credits: 1, windowSeconds: 60 }),
    unkeyed: createMemoryQuotaStore({ credits: 1, windowSeconds: 60 }),
  };
  for (const p of pipes) serveLedgers(p.primary, stores);
}

afterEach(() => {
  vi.useRealTimers();
});

describe('ledgers over IPC', () => {
  it('two workers, 50 concurrent charges with credits for 10: exactly 10 admitted', async () => {
    const a = pipe();
    const b = pipe();
    primaryWith(createMemoryQuotaStore({ credits: 30, windowSeconds: 3600 }), [a, b]);
    const workers = [createIpcLedgers(a.worker), createIpcLedgers(b.worker)];
    const outcomes = await Promise.all(Array.from({ length: 50 }, (_, i) => workers[i % 2]!.quota.charge('key', 3)));
    expect(outcomes.filter((o) => o.allowed)).toHaveLength(10);
    expect(outcomes.filter((o) => !o.allowed).every((o) => o.remaining === 0)).toBe(true);
  });

  it("sends one turn's requests as one message, and answers each its own", async () => {
    const a = pipe();
    primaryWith(createMemoryQuotaStore({ credits: 5, windowSeconds: 3600 }), [a]);
    const ledgers = createIpcLedgers(a.worker);
    const outcomes = await Promise.all([
      ledgers.quota.charge('one', 2),
      ledgers.quota.charge('one', 2),
      ledgers.quota.charge('one', 2),
      ledgers.quota.charge('other', 5),
      ledgers.unkeyed.charge('one', 1),
    ]);
    expect(a.sent).toHaveLength(1);
    expect(outcomes.map((o) => [o.allowed, o.remaining])).toEqual([
      [true, 3],
      [true, 1],
      [false, 1],
      [true, 0],
      [true, 0],
    ]);
    // a later turn is a message of its own
    await ledgers.quota.charge('third', 1);
    expect(a.sent).toHaveLength(2);
  });

  it('a refund given back through the primary frees the credits', async () => {
    const a = pipe();
    primaryWith(createMemoryQuotaStore({ credits: 3, windowSeconds: 3600 }), [a]);
    const ledgers = createIpcLedgers(a.worker);
    const first = await ledgers.quota.charge('key', 3);
    await ledgers.quota.refund('key', first.chargeId!, 3);
    expect((await ledgers.quota.charge('key', 3)).allowed).toBe(true);
  });

  it("a store's failure in the primary fails that call with its reason, not the others", async () => {
    const a = pipe();
    const failing: QuotaStore = {
      charge: async (keyId, cost) => {
        if (keyId === 'bad') throw new Error('disk on fire');
        return createMemoryQuotaStore({ credits: 10, windowSeconds: 60 }).charge(keyId, cost);
      },
      refund: async () => {},
      close: async () => {},
    };
    primaryWith(failing, [a]);
    const ledgers = createIpcLedgers(a.worker);
    const [bad, good] = await Promise.allSettled([ledgers.quota.charge('bad', 1), ledgers.quota.charge('good', 1)]);
    expect(bad).toMatchObject({
      status: 'rejected',
      reason: { message: expect.stringMatching(/quota ledger failed in the primary: disk on fire/) },
    });
    expect(good).toMatchObject({ status: 'fulfilled', value: { allowed: true } });
  });

  it('a primary that does not answer fails the calls at the bound (fail closed)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const a = pipe();
    a.delivering = false;
    const ledgers = createIpcLedgers(a.worker, 1_000);
    const charge = ledgers.quota.charge('key', 1);
    const settled = charge.then(
      () => 'answered',
      (e: Error) => e.message,
    );
    await new Promise((r) => setImmediate(r)); // the message goes out at the end of the turn
    expect(a.sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await settled).toMatch(/did not answer the quota ledger within 1000 ms/);
  });

  it('a channel that cannot send fails the calls of that message with the reason', async () => {
    const closed: Channel = {
      send: () => {
        throw new Error('Channel closed');
      },
      on: () => undefined,
    };
    const ledgers = createIpcLedgers(closed);
    await expect(ledgers.issue.charge('key', 1)).rejects.toThrow(/issue ledger cannot be reached: Channel closed/);
  });

  it('closing a ledger fails its calls still waiting, and only its own', async () => {
    const a = pipe();
    a.delivering = false;
    const ledgers = createIpcLedgers(a.worker);
    const quota = ledgers.quota.charge('key', 1).catch((e: Error) => e.message);
    let unkeyedSettled = false;
    const unkeyed = ledgers.unkeyed.charge('key', 1).then(
      () => 'answered',
      () => 'failed',
    );
    void unkeyed.finally(() => {
      unkeyedSettled = true;
    });
    await ledgers.quota.close();
    expect(await quota).toMatch(/quota ledger is closed/);
    expect(unkeyedSettled).toBe(false);
    await ledgers.unkeyed.close();
    expect(await unkeyed).toBe('failed');
  });
});
