/**
 * The credit ledgers of a multi-process instance without Redis (README "Every core"): the primary holds
 * the one in-memory ledger of each kind and serves check-and-charge over the cluster's IPC channel, one
 * message at a time — so a charge stays one atomic step across workers (N concurrent requests with
 * credits for M < N admit exactly M, whichever workers they land on).
 */
import type { ChargeOutcome, QuotaStore } from '../platform/quota.js';

export const LEDGER_NAMES = ['quota', 'issue', 'unkeyed'] as const;
export type LedgerName = (typeof LEDGER_NAMES)[number];

interface LedgerRequest {
  readonly netdiagLedger: 'request';
  readonly id: number;
  readonly ledger: LedgerName;
  readonly op: 'charge' | 'refund';
  readonly keyId: string;
  readonly cost?: number;
  readonly chargeId?: string;
  readonly amount?: number;
}

interface LedgerReply {
  readonly netdiagLedger: 'reply';
  readonly id: number;
  readonly outcome?: ChargeOutcome;
  readonly error?: string;
}

/** The side of a channel to a process: Node's `process` in a worker, a cluster Worker in the primary. */
export interface Channel {
  send(message: unknown): unknown;
  on(event: 'message', listener: (message: unknown) => void): unknown;
}

/** Primary side: answers ledger requests arriving on `channel` from the primary's own stores. */
export function serveLedgers(channel: Channel, stores: Readonly<Record<LedgerName, QuotaStore>>): void {
  channel.on('message', (message) => {
    const request = message as Partial<LedgerRequest>;
    if (request?.netdiagLedger !== 'request' || typeof request.id !== 'number') return;
    const id = request.id;
    const store = stores[request.ledger as LedgerName];
    const reply = (body: Omit<LedgerReply, 'netdiagLedger' | 'id'>) =>
      channel.send({ netdiagLedger: 'reply', id, ...body } satisfies LedgerReply);
    if (!store) {
      reply({ error: `unknown ledger ${String(request.ledger)}` });
      return;
    }
    const work =
      request.op === 'charge'
        ? store.charge(String(request.keyId), Number(request.cost))
        : store.refund(String(request.keyId), String(request.chargeId), Number(request.amount)).then(() => undefined);
    work.then(
      (outcome) => reply(outcome ? { outcome } : {}),
      (e: unknown) => reply({ error: (e as Error).message }),
    );
  });
}

/**
 * Worker side: a QuotaStore whose every call is a request to the primary. A primary that does not
 * answer within `timeoutMs` fails the call (the credit plugin answers 503, fail closed, decisions §11).
 */
export function createIpcQuotaStore(channel: Channel, ledger: LedgerName, timeoutMs = 5_000): QuotaStore {
  let sequence = 0;
  const pending = new Map<number, { resolve: (reply: LedgerReply) => void; timer: NodeJS.Timeout }>();
  channel.on('message', (message) => {
    const reply = message as Partial<LedgerReply>;
    if (reply?.netdiagLedger !== 'reply' || typeof reply.id !== 'number') return;
    const waiter = pending.get(reply.id);
    if (!waiter) return;
    pending.delete(reply.id);
    clearTimeout(waiter.timer);
    waiter.resolve(reply as LedgerReply);
  });
  const ask = (body: Omit<LedgerRequest, 'netdiagLedger' | 'id' | 'ledger'>): Promise<LedgerReply> =>
    new Promise<LedgerReply>((resolve, reject) => {
      // The three stores of a worker share its channel and each sees every reply: an id carries its
      // ledger's index, so no two stores ever wait for the same id.
      const id = ++sequence * LEDGER_NAMES.length + LEDGER_NAMES.indexOf(ledger);
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`the primary process did not answer the ${ledger} ledger within ${timeoutMs} ms`));
      }, timeoutMs);
      pending.set(id, { resolve, timer });
      channel.send({ netdiagLedger: 'request', id, ledger, ...body } satisfies LedgerRequest);
    }).then((reply) => {
      if (reply.error !== undefined) throw new Error(`the ${ledger} ledger failed in the primary: ${reply.error}`);
      return reply;
    });
  return {
    async charge(keyId, cost) {
      const reply = await ask({ op: 'charge', keyId, cost });
      if (!reply.outcome) throw new Error(`the ${ledger} ledger answered a charge without an outcome`);
      return reply.outcome;
    },
    async refund(keyId, chargeId, amount) {
      await ask({ op: 'refund', keyId, chargeId, amount });
    },
    async close() {
      for (const [id, waiter] of pending) {
        clearTimeout(waiter.timer);
        pending.delete(id);
      }
    },
  };
}

/** A worker's three ledgers, each asking the primary over this process's IPC channel. */
export function ipcLedgers(): Record<LedgerName, QuotaStore> {
  const channel = process as unknown as Channel;
  return {
    quota: createIpcQuotaStore(channel, 'quota'),
    issue: createIpcQuotaStore(channel, 'issue'),
    unkeyed: createIpcQuotaStore(channel, 'unkeyed'),
  };
}
