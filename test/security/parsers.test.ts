/**
 * Threat: an upstream (a DNS TXT record, a WHOIS server, a web page) answers text built to make a parser
 * take super-linear time. Each parser gets 100 KB of hostile input and must finish; the bound is generous
 * (a loaded CI machine), and `npm run bench` prints the time per size, which shows the growth is linear.
 *
 * WHOIS and RDAP answers carry one 200 KB value each of a shape that the parser's readers used to
 * backtrack over quadratically (tens of seconds for the dots in "Domain Name: a.....b"); the parse must
 * stay well within the same bound, and its result sane: the hostile value is refused or cut, never
 * reported as a fact.
 */
import { describe, expect, it } from 'vitest';
import { WHOIS_MAX_BYTES } from '../../src/probes/registry/whois.js';
import { HOSTILE_CASES, HOSTILE_REGISTRY_ANSWERS, HOSTILE_VALUE_BYTES } from './hostile-inputs.js';

const BYTES = 100 * 1024;
const GENEROUS_MS = 2_000;

describe('parsers against 100 KB of hostile input', () => {
  for (const { name, input, parse } of HOSTILE_CASES) {
    it(`${name}: finishes`, () => {
      const text = input(BYTES);
      expect(text.length).toBeGreaterThan(BYTES * 0.9);
      const started = performance.now();
      expect(() => parse(text)).not.toThrow();
      expect(performance.now() - started).toBeLessThan(GENEROUS_MS);
    });
  }
});

describe('WHOIS and RDAP parsers against a 200 KB hostile value', () => {
  for (const { kind, shape, input, parse, problem } of HOSTILE_REGISTRY_ANSWERS) {
    it(`${kind} (200 KB ${shape}): finishes in time with a sane result`, () => {
      const text = input(HOSTILE_VALUE_BYTES);
      expect(text.length).toBeGreaterThan(HOSTILE_VALUE_BYTES * 0.9);
      // What a WHOIS server can send in one answer (the probe keeps 256 KiB).
      if (kind.startsWith('whois')) expect(Buffer.byteLength(text)).toBeLessThanOrEqual(WHOIS_MAX_BYTES);
      const started = performance.now();
      const result = parse(text);
      expect(performance.now() - started).toBeLessThan(GENEROUS_MS);
      expect(problem(result)).toBeNull();
    });
  }
});
