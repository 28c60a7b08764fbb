/**
 * Durations of `every` and `monitors.minInterval` (docs/contract/monitors.md): a whole number
 * and a unit, `30s`, `15m`, `6h`, `1d`.
 */
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Milliseconds of a duration; null for anything else. */
export function parseDuration(text: unknown): number | null {
  if (typeof text !== 'string') return null;
  const m = /^([1-9][0-9]{0,5})([smhd])$/.exec(text);
  return m ? Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS] : null;
}
