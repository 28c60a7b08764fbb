/**
 * Threat: an upstream (a DNS TXT record, a WHOIS server, a web page) answers text built to make a parser
 * take super-linear time. Each parser gets 100 KB of hostile input and must finish; the bound is generous
 * (a loaded CI machine), and `npm run bench` prints the time per size, which shows the growth is linear.
 */
import { describe, expect, it } from 'vitest';
import { HOSTILE_CASES } from './hostile-inputs.js';

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
