/**
 * Per-request DataLoaders over the probes (decisions §9). Keys are the upstream question itself
 * ("server|name|type", "host:port"), so composite checks reuse the answers of their parts.
 */
import type { Services } from '../services.js';

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Loaders {}

export function createLoaders(_services: Services, _signal: AbortSignal): Loaders {
  return {};
}
