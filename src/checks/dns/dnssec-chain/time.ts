/**
 * RRSIG times are 32-bit seconds compared with serial number arithmetic (RFC 4034 §3.1.5, RFC 1982),
 * so that they keep working past 2106: each is read as the instant nearest to now.
 */
const SPAN = 2 ** 32;

/** Seconds since the epoch of the RRSIG time `value`, taken as the instant within 68 years of `nowSeconds`. */
export function absoluteTime(value: number, nowSeconds: number): number {
  let delta = (value - nowSeconds) % SPAN;
  if (delta < 0) delta += SPAN;
  if (delta >= SPAN / 2) delta -= SPAN;
  return nowSeconds + delta;
}

export function isoTime(value: number, nowSeconds: number): string {
  return new Date(absoluteTime(value, nowSeconds) * 1000).toISOString().replace('.000Z', 'Z');
}
