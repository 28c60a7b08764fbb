/**
 * /metrics over every process of an instance (docs/operations.md "Metrics"): each worker keeps its own registry
 * (src/platform/metrics.ts); the primary asks the ready workers for theirs over the cluster's IPC
 * channel and sums them with its own (prom-client's AggregatorRegistry: counters and histograms
 * summed, the process metrics by each metric's own rule).
 *
 * Only ready workers are asked: a starting worker has nothing to count yet and could not answer. A
 * ready worker that does not answer in time fails the scrape rather than leaving its counts out: a
 * sum that drops for one scrape reads to Prometheus as a counter reset.
 */
import type { Worker } from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';
import type { PrimaryChannel } from './worker-messages.js';

/** A worker busy at saturation still answers within this (its event loop turns several times a second). */
export const METRICS_COLLECT_TIMEOUT_MS = 5_000;

type MetricsJson = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;

/** primary → worker: send your registry; worker → primary: here it is */
interface CollectRequest {
  readonly netdiagMetrics: 'collect';
  readonly id: number;
}
interface Collected {
  readonly netdiagMetrics: 'collected';
  readonly id: number;
  readonly metrics?: MetricsJson;
  readonly error?: string;
}
/** worker → primary: the instance's exposition, please (/metrics on the API port); primary → worker: here */
interface ExpositionRequest {
  readonly netdiagMetrics: 'exposition';
  readonly id: number;
}
interface Exposition {
  readonly netdiagMetrics: 'exposed';
  readonly id: number;
  readonly text?: string;
  readonly error?: string;
}

function kind(message: unknown): string | undefined {
  return (message as { netdiagMetrics?: string } | null)?.netdiagMetrics;
}

/** Worker side: answers the primary's requests for this worker's registry. */
export function serveMetricsToPrimary(channel: PrimaryChannel, registry: Registry): void {
  channel.on('message', (message) => {
    if (kind(message) !== 'collect') return;
    const { id } = message as CollectRequest;
    registry.getMetricsAsJSON().then(
      (metrics) => channel.send({ netdiagMetrics: 'collected', id, metrics } satisfies Collected),
      (e: unknown) =>
        channel.send({ netdiagMetrics: 'collected', id, error: (e as Error).message } satisfies Collected),
    );
  });
}

/** Worker side: the instance's exposition, asked of the primary. */
export function expositionFromPrimary(
  channel: PrimaryChannel,
  timeoutMs = 2 * METRICS_COLLECT_TIMEOUT_MS,
): () => Promise<string> {
  let sequence = 0;
  const waiting = new Map<number, { resolve(text: string): void; reject(e: Error): void }>();
  channel.on('message', (message) => {
    if (kind(message) !== 'exposed') return;
    const reply = message as Exposition;
    const waiter = waiting.get(reply.id);
    if (!waiter) return; // timed out already
    waiting.delete(reply.id);
    if (reply.text !== undefined) waiter.resolve(reply.text);
    else waiter.reject(new Error(reply.error ?? 'the primary process answered without metrics'));
  });
  return () =>
    new Promise<string>((resolve, reject) => {
      const id = ++sequence;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error(`the primary process did not send the metrics within ${timeoutMs} ms`));
      }, timeoutMs);
      waiting.set(id, {
        resolve(text) {
          clearTimeout(timer);
          resolve(text);
        },
        reject(e) {
          clearTimeout(timer);
          reject(e);
        },
      });
      channel.send({ netdiagMetrics: 'exposition', id } satisfies ExpositionRequest);
    });
}

export interface MetricsCollector {
  /** The text exposition of the primary's registry and every ready worker's, summed. */
  exposition(): Promise<string>;
  /** Answers a worker's requests for the exposition (its /metrics on the API port). */
  serve(worker: Worker): void;
}

/** Primary side. `readyWorkers`: the workers to ask, at the time of each scrape. */
export function createMetricsCollector(
  own: Registry,
  readyWorkers: () => readonly Worker[],
  timeoutMs = METRICS_COLLECT_TIMEOUT_MS,
): MetricsCollector {
  let sequence = 0;

  const collectFrom = (worker: Worker): Promise<MetricsJson> =>
    new Promise<MetricsJson>((resolve, reject) => {
      const id = ++sequence;
      const onMessage = (message: unknown) => {
        if (kind(message) !== 'collected' || (message as Collected).id !== id) return;
        settle();
        const reply = message as Collected;
        if (reply.metrics) resolve(reply.metrics);
        else reject(new Error(`worker ${worker.process.pid}: ${reply.error ?? 'no metrics'}`));
      };
      const onExit = () => {
        settle();
        reject(new Error(`worker ${worker.process.pid} exited during the scrape`));
      };
      const timer = setTimeout(() => {
        settle();
        reject(new Error(`worker ${worker.process.pid} did not send its metrics within ${timeoutMs} ms`));
      }, timeoutMs);
      const settle = () => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('exit', onExit);
      };
      worker.on('message', onMessage);
      worker.once('exit', onExit);
      worker.send({ netdiagMetrics: 'collect', id } satisfies CollectRequest, undefined, (error: Error | null) => {
        if (!error) return;
        settle();
        reject(new Error(`worker ${worker.process.pid} could not be asked for its metrics: ${error.message}`));
      });
    });

  const exposition = async (): Promise<string> => {
    const all = await Promise.all([own.getMetricsAsJSON(), ...readyWorkers().map(collectFrom)]);
    return AggregatorRegistry.aggregate(all).metrics();
  };

  return {
    exposition,
    serve(worker) {
      worker.on('message', (message: unknown) => {
        if (kind(message) !== 'exposition') return;
        const { id } = message as ExpositionRequest;
        // a worker gone meanwhile has no use for the answer
        const send = (reply: Exposition) => worker.isConnected() && worker.send(reply, undefined, () => {});
        exposition().then(
          (text) => send({ netdiagMetrics: 'exposed', id, text }),
          (e: unknown) => send({ netdiagMetrics: 'exposed', id, error: (e as Error).message }),
        );
      });
    },
  };
}
