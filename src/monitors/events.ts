/**
 * A monitor's events (docs/contract/monitors.md "Events"): `{ id, at, monitorId, target, check, kind,
 * severity, summary, changes }`. The pure functions make them without `id` and `monitorId`; the store
 * gives each its id when it commits them with their run (./store/monitor-store.ts).
 */
import type { Leaf } from '../watch/projection.js';
import type { Severity } from './severity.js';

export type MonitorEventKind = 'changed' | 'failing' | 'recovered' | 'expiring' | 'paused' | 'resumed';

/** One target as submitted: a string fills each check's main parameter, an object names parameters. */
export type MonitorTarget = string | Readonly<Record<string, string>>;

export interface EventChange {
  readonly path: string;
  readonly before: Leaf;
  readonly after: Leaf;
}

/** An event before the store numbers it. */
export interface NewMonitorEvent {
  readonly at: string;
  /** null for the events of the whole monitor (paused, resumed) */
  readonly target: MonitorTarget | null;
  readonly check: string | null;
  readonly kind: MonitorEventKind;
  readonly severity: Severity;
  readonly summary: string;
  readonly changes: readonly EventChange[];
}

export interface MonitorEvent extends NewMonitorEvent {
  readonly id: string;
  readonly monitorId: string;
}

/** How a target reads in a sentence: the string, or its parameters (`domain=example.com selector=s1`). */
export function describeTarget(target: MonitorTarget): string {
  if (typeof target === 'string') return target;
  return Object.entries(target)
    .map(([name, value]) => `${name}=${value}`)
    .join(' ');
}

/** A value in a sentence: JSON text, shortened; "nothing" for null. */
export function describeValue(value: Leaf): string {
  if (value === null) return 'nothing';
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
