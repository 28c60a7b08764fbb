/**
 * The recorded example answers of every tool (data/openapi-examples.json, recorded from the integration
 * tests' loopback labs), and variations of them for the monitor tests.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { JsonObject } from '../../../src/watch/projection.js';

const recorded = JSON.parse(
  readFileSync(resolve(import.meta.dirname, '../../../data/openapi-examples.json'), 'utf8'),
) as Record<string, { body: { data: JsonObject } }>;

/** Every tool with a recorded example. */
export const EXAMPLE_TOOLS = Object.keys(recorded);

/** A fresh copy of a tool's recorded `data`, free to change. */
export function example(tool: string): any {
  return structuredClone(recorded[tool]!.body.data);
}

/**
 * Fields that differ on every run by their nature: timings, counts of work done, the time of a fetch, the
 * text of a transcript or a sentence carrying timings. A watched projection must not see them.
 */
const NOISE_NUMBERS = new Set([
  'responseTime',
  'responseTimeMs',
  'totalMs',
  'tcpMs',
  'tlsHandshakeMs',
  'durationMs',
  'handshakes',
  'cpuMs',
  'signaturesVerified',
  'questions',
  'average',
  'min',
  'max',
  'avgRoundTripMs',
  'dnsMs',
  'tlsMs',
  'remainingMs',
  'daysRemaining',
  'daysUntilExpiry',
  'percentRemaining',
  'serial',
  'keyCount',
  'bytes',
]);
const NOISE_TEXTS = new Set([
  'fetchedAt',
  'raw',
  'text',
  'summary',
  'headline',
  'banner',
  'message',
  'date',
  'keep-alive',
]);

/**
 * Paths of arrays whose order means something (a redirect chain, a certificate chain as served, the contacts
 * of a security.txt by preference, RFC 9116 §2.5.3): every other array is a set in an answer, and is reversed here.
 */
const ORDERED = new Set(['redirectChain', 'chain', 'hops', 'contact']);

/** The same answer as another run would give it: other timings and texts, sets in another order. */
export function noisy(value: any, key = ''): any {
  if (Array.isArray(value)) {
    const items = value.map((v) => noisy(v));
    return ORDERED.has(key) ? items : items.reverse();
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).reverse()) out[k] = noisy(value[k], k);
    return out;
  }
  if (typeof value === 'number' && NOISE_NUMBERS.has(key)) return value + 7;
  if (typeof value === 'string' && NOISE_TEXTS.has(key)) return `${value} (again, 12.5 ms later)`;
  return value;
}
