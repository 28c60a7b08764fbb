/**
 * The per-request loader every probe family shares (decisions §9): each distinct upstream question —
 * keyed by the question itself — is asked once per request, and every caller of the same question gets
 * the same answer or the same error.
 *
 * Built on DataLoader with one correction. Our questions are never batched (a DNS question is one
 * packet, a handshake one connection), so `batch: false`. But DataLoader 2 does not hand a cache hit
 * its promise at once: it parks the hit on the batch being formed and resolves it only when that batch's
 * *new* question is answered (dataloader/index.js `resolveCacheHits`). A repeated question would then
 * wait for an unrelated slow one — in mailhealth-check a slow DMARC answer held the MX and SPF parts
 * back past their bound. So hits are served from the cache map we own, and DataLoader only sees
 * questions it has not been asked yet.
 */
import DataLoader from 'dataloader';

export interface RequestLoader<K, V> {
  load(question: K): Promise<V>;
}

export function createRequestLoader<K, V>(
  ask: (question: K) => Promise<V>,
  keyOf: (question: K) => string,
): RequestLoader<K, V> {
  const cacheMap = new Map<string, Promise<V>>();
  const loader = new DataLoader<K, V, string>(
    async (questions) =>
      Promise.all(questions.map((q) => ask(q).catch((e: unknown) => (e instanceof Error ? e : new Error(String(e)))))),
    { batch: false, cacheKeyFn: keyOf, cacheMap },
  );
  return {
    load: (question) => cacheMap.get(keyOf(question)) ?? loader.load(question),
  };
}
