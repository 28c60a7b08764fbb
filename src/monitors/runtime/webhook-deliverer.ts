/**
 * A monitor's webhook (docs/contract/monitors.md "Behaviour"): each event is POSTed as JSON (not
 * enveloped) by the jobs' signed delivery (src/jobs/signed-delivery.ts: the target guard at each try,
 * `X-Netdiag-Timestamp`, `X-Netdiag-Signature`, 3 tries with back-off), with `X-Netdiag-Event-Id` for
 * deduplication. One deliverer per monitor at a time, in event order: the next event waits for the one
 * before it to be delivered or given up (`markDelivered` records the outcome; a failure counts on the
 * monitor's `notify`). An event delivered and then cut off by a crash before `markDelivered` committed is
 * sent once more with the same event id: that is what the id is for. With a `lease` (Redis mode,
 * ./redis-delivery-lease.ts) one deliverer per monitor across all instances: a process delivers only while
 * it holds the monitor's lease, and looks again once it let it go (an event committed by another instance
 * meanwhile found the lease taken).
 */
import { deliverSigned } from '../../jobs/signed-delivery.js';
import type { Services } from '../../services.js';
import type { MonitorStore } from '../store/monitor-store.js';
import type { DeliveryLease } from './redis-delivery-lease.js';

export const EVENT_ID_HEADER = 'x-netdiag-event-id';
/** events read per turn of a deliverer */
const DELIVERY_BATCH = 20;

export interface WebhookDeliverer {
  /** the monitor may have events to deliver */
  wake(monitorId: string): void;
  /** deliveries under way finish their current try; nothing new starts */
  stop(): Promise<void>;
}

export function createWebhookDeliverer(options: {
  store: MonitorStore;
  services: Services;
  signal: AbortSignal;
  lease?: DeliveryLease;
}): WebhookDeliverer {
  const { store, services, signal, lease } = options;
  /** monitors with a deliverer running, and whether it was woken again meanwhile */
  const running = new Map<string, { again: boolean; done: Promise<void> }>();

  /** 'drained': no event left to deliver when it looked */
  async function deliverAll(monitorId: string, signal: AbortSignal): Promise<'drained' | 'stopped'> {
    for (;;) {
      const monitor = await store.get(monitorId);
      if (!monitor?.notify || signal.aborted) return 'stopped';
      const events = await store.pendingDeliveries(monitorId, DELIVERY_BATCH);
      if (events.length === 0) return 'drained';
      for (const event of events) {
        if (signal.aborted) return 'stopped';
        const state = await deliverSigned(
          services,
          {
            url: monitor.notify.webhook,
            secret: monitor.secret,
            body: JSON.stringify(event),
            headers: { [EVENT_ID_HEADER]: event.id },
            backoffMs: services.config.jobs.callbackBackoffMs,
            signal,
          },
          async () => {},
        );
        // stopped between tries: the event is sent again at the next start
        if (state.status === 'pending') return 'stopped';
        await store.markDelivered(monitorId, event.id, state.status === 'delivered' ? null : state.error);
      }
    }
  }

  /** delivers under the monitor's lease; true: look again (events may have come while it was held) */
  async function deliverLeased(monitorId: string): Promise<boolean> {
    if (!lease) {
      await deliverAll(monitorId, signal);
      return false;
    }
    const held = await lease.acquire(monitorId);
    if (!held) return false;
    let drained: boolean;
    try {
      drained = (await deliverAll(monitorId, AbortSignal.any([signal, held.signal]))) === 'drained';
    } finally {
      await held.release();
    }
    return drained && !signal.aborted && (await store.pendingDeliveries(monitorId, 1)).length > 0;
  }

  function wake(monitorId: string): void {
    if (signal.aborted) return;
    const current = running.get(monitorId);
    if (current) {
      current.again = true;
      return;
    }
    const entry = { again: false, done: Promise.resolve() };
    entry.done = (async () => {
      do {
        entry.again = false;
        try {
          if (await deliverLeased(monitorId)) entry.again = true;
        } catch (e) {
          services.logger.error('monitor_webhook_failed', { monitorId, message: (e as Error).message });
        }
      } while (entry.again && !signal.aborted);
      running.delete(monitorId);
    })();
    running.set(monitorId, entry);
  }

  return {
    wake,
    async stop() {
      await Promise.all([...running.values()].map((r) => r.done));
    },
  };
}
