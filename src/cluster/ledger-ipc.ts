/**
 * The credit ledgers of a multi-process instance without Redis (docs/operations.md "Every core"): the primary holds
 * the one in-memory ledger of each kind and serves check-and-charge over the cluster's IPC channel —
 * the requests in the order they arrive, each one atomic step — so N concurrent requests with credits
 * for M < N admit exactly M, whichever workers they land on.
 *
 * A worker sends the ledger requests of one event-loop turn as one message, and the primary answers
 * them as one: a message is a JSON encoding, a pipe write and a parse on each side, which at one per
 * request took a noticeable share of a worker's CPU and most of the primary's on the load mix
 * (docs/performance.md "Measured reasons behind design choices"). Sending at the end of the turn
 * (setImmediate, after the turn's I/O callbacks) adds no waiting of its own.
 */
import type { ChargeOutcome, QuotaStore } from '../platform/quota.js';

/** Set in a worker's environment when the primary holds the ledgers (no Redis). */
export const LEDGERS_IN_PRIMARY_ENV = 'NETDIAG_LEDGERS_IN_PRIMARY';

export const LEDGER_NAMES = ['quota', 'issue', 'unkeyed'] as const;
export type LedgerName = (typeof LEDGER_NAMES)[number];

interface LedgerRequest {
  readonly id: number;
  readonly ledger: LedgerName;
  readonly op: 'charge' | 'refund';
  readonly keyId: string;
  readonly cost?: number;
  readonly chargeId?: string;
  readonly amount?: number;
}

interface LedgerReply {
  readonly id: number;
  readonly outcome?: ChargeOutcome;
  readonly error?: string;
}

interface LedgerRequests {
  readonly netdiagLedger: 'requests';
  readonly requests: readonly LedgerRequest[];
}

interface LedgerReplies {
  readonly netdiagLedger: 'replies';
  readonly replies: readonly LedgerReply[];
}

/** The side of a channel to a process: Node's `process` in a worker, a cluster Worker in the primary. */
export interface Channel {
  send(message: unknown): unknown;
  on(event: 'message', listener: (message: unknown) => void): unknown;
}

/** Primary side: answers the ledger requests arriving on `channel` from the primary's own stores. */
export function serveLedgers(channel: Channel, stores: Readonly<Record<LedgerName, QuotaStore>>): void {
  channel.on('message', (message) => {
    const batch = message as Partial<LedgerRequests>;
    if (batch?.netdiagLedger !== 'requests' || !Array.isArray(batch.requests)) return;
    // Every store call starts here, in arrival order; the replies go back together.
    Promise.all(batch.requests.map((request) => answer(request, stores))).then((replies) =>
      channel.send({ netdiagLedger: 'replies', replies } satisfies LedgerReplies),
    );
  });
}

function answer(request: LedgerRequest, stores: Readonly<Record<LedgerName, QuotaStore>>): Promise<LedgerReply> {
  const { id } = request;
  const store = Object.hasOwn(stores, request.ledger) ? stores[request.ledger] : undefined;
  if (!store) return Promise.resolve({ id, error: `unknown ledger ${String(request.ledger)}` });
  const work =
    request.op === 'charge'
      ? store.charge(String(request.keyId), Number(request.cost))
      : store.refund(String(request.keyId), String(request.chargeId), Number(request.amount)).then(() => undefined);
  return work.then(
    (outcome) => (outcome ? { id, outcome } : { id }),
    (e: unknown) => ({ id, error: (e as Error).message }),
  );
}

interface Waiter {
  readonly ledger: LedgerName;
  readonly resolve: (reply: LedgerReply) => void;
  readonly reject: (e: Error) => void;
}

/**
 * Worker side: the worker's ledgers, each a QuotaStore whose every call is a request to the primary's
 * ledger of that name, sharing one channel. A primary that does not answer within `timeoutMs`, or a
 * channel that cannot send, fails the calls of that message (the credit plugin answers 503, fail
 * closed, decisions §11).
 */
export function createIpcLedgers(channel: Channel, timeoutMs = 5_000): Record<LedgerName, QuotaStore> {
  let sequence = 0;
  const pending = new Map<number, Waiter>();
  let outgoing: LedgerRequest[] = [];
  let flushScheduled = false;

  channel.on('message', (message) => {
    const batch = message as Partial<LedgerReplies>;
    if (batch?.netdiagLedger !== 'replies' || !Array.isArray(batch.replies)) return;
    for (const reply of batch.replies) {
      const waiter = pending.get(reply.id);
      if (!waiter) continue; // timed out already
      pending.delete(reply.id);
      waiter.resolve(reply);
    }
  });

  const flush = (): void => {
    flushScheduled = false;
    const requests = outgoing;
    outgoing = [];
    const failAll = (reason: (ledger: LedgerName) => string): void => {
      for (const { id } of requests) {
        const waiter = pending.get(id);
        if (!waiter) continue; // answered, or its ledger closed
        pending.delete(id);
        waiter.reject(new Error(reason(waiter.ledger)));
      }
    };
    // One timer for the message: its calls fail together when the primary does not answer.
    const timer = setTimeout(
      () => failAll((ledger) => `the primary process did not answer the ${ledger} ledger within ${timeoutMs} ms`),
      timeoutMs,
    ).unref();
    try {
      channel.send({ netdiagLedger: 'requests', requests } satisfies LedgerRequests);
    } catch (e) {
      // e.g. ERR_IPC_CHANNEL_CLOSED: the primary is gone
      clearTimeout(timer);
      failAll((ledger) => `the ${ledger} ledger cannot be reached: ${(e as Error).message}`);
    }
  };

  const ask = (ledger: LedgerName, body: Omit<LedgerRequest, 'id' | 'ledger'>): Promise<LedgerReply> =>
    new Promise<LedgerReply>((resolve, reject) => {
      const id = ++sequence;
      pending.set(id, { ledger, resolve, reject });
      outgoing.push({ id, ledger, ...body });
      if (!flushScheduled) {
        flushScheduled = true;
        setImmediate(flush);
      }
    }).then((reply) => {
      if (reply.error !== undefined) throw new Error(`the ${ledger} ledger failed in the primary: ${reply.error}`);
      return reply;
    });

  const store = (ledger: LedgerName): QuotaStore => ({
    async charge(keyId, cost) {
      const reply = await ask(ledger, { op: 'charge', keyId, cost });
      if (!reply.outcome) throw new Error(`the ${ledger} ledger answered a charge without an outcome`);
      return reply.outcome;
    },
    async refund(keyId, chargeId, amount) {
      await ask(ledger, { op: 'refund', keyId, chargeId, amount });
    },
    async close() {
      for (const [id, waiter] of pending) {
        if (waiter.ledger !== ledger) continue;
        pending.delete(id);
        waiter.reject(new Error(`the ${ledger} ledger is closed: the worker is stopping`));
      }
    },
  });
  return { quota: store('quota'), issue: store('issue'), unkeyed: store('unkeyed') };
}

/** A worker's three ledgers, asking the primary over this process's IPC channel. */
export function ipcLedgers(): Record<LedgerName, QuotaStore> {
  return createIpcLedgers(process as unknown as Channel);
}
