/**
 * The character scans that replaced the WHOIS reader's quadratic regular expressions must
 * give what those expressions gave: each is compared with its expression on many short
 * strings built from the characters that matter to it (a seeded generator, so a failure
 * can be replayed), and must stay fast on a long run where the expression was not.
 */
import { describe, expect, it } from 'vitest';
import { normaliseKey } from '../../../../src/probes/registry/whois/lines.js';
import {
  isWhitespace,
  replaceBracketed,
  stripTrailingBracketed,
  trimEndWhile,
} from '../../../../src/probes/registry/whois/scan.js';
import { cleanHostName, cleanRegistrar, readEmail, readPhone } from '../../../../src/probes/registry/whois/values.js';

/** Strings of up to `maxParts` pieces drawn from `pieces`, by a linear congruential generator. */
function* samples(pieces: readonly string[], count: number, maxParts = 8): Generator<string> {
  let state = 20_240_501;
  const next = (bound: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state % bound;
  };
  for (let index = 0; index < count; index += 1) {
    let text = '';
    const parts = next(maxParts + 1);
    for (let part = 0; part < parts; part += 1) text += pieces[next(pieces.length)];
    yield text;
  }
}

const SPACES = [' ', '\t', '\u00a0', '\u2028', '\u3000', '\ufeff'];

describe('whois scans give what the expressions they replace gave', () => {
  it('trimEndWhile: /[\\s.:]+$/ and /\\.+$/', () => {
    const isKeyEnding = (char: string) => char === '.' || char === ':' || isWhitespace(char);
    for (const text of samples(['a', '.', ':', 'b.c', ...SPACES], 5000)) {
      expect(trimEndWhile(text, isKeyEnding), JSON.stringify(text)).toBe(text.replace(/[\s.:]+$/, ''));
      expect(
        trimEndWhile(text, (char) => char === '.'),
        JSON.stringify(text),
      ).toBe(text.replace(/\.+$/, ''));
    }
  });

  it('replaceBracketed: /\\([^)]*\\)/g and /\\((?:yyyy|dd|mm)[^)]*\\)/g', () => {
    const isHint = (text: string, at: number) => ['yyyy', 'dd', 'mm'].some((hint) => text.startsWith(hint, at));
    for (const text of samples(['(', ')', 'a', 'yyyy', 'dd', 'm', ' '], 5000)) {
      expect(replaceBracketed(text, '(', ')', ' '), JSON.stringify(text)).toBe(text.replace(/\([^)]*\)/g, ' '));
      expect(replaceBracketed(text, '(', ')', ' ', isHint), JSON.stringify(text)).toBe(
        text.replace(/\((?:yyyy|dd|mm)[^)]*\)/g, ' '),
      );
    }
  });

  it('stripTrailingBracketed: Nominet tags and registrar web addresses', () => {
    for (const text of samples(['[tag', '[TAG', '=', ']', '[', ' ', '\t', 'x', 'Tag = X'], 5000)) {
      expect(stripTrailingBracketed(text, '[', ']', /\[tag\s*=/iy), JSON.stringify(text)).toBe(
        text.replace(/\s*\[tag\s*=[^\]]*\]\s*$/i, ''),
      );
    }
    for (const text of samples(['(', ')', 'http://', 'HTTPS://', 'http:/', ' ', 'x', '\u2028'], 5000)) {
      expect(stripTrailingBracketed(text, '(', ')', /\(\s*https?:\/\//iy), JSON.stringify(text)).toBe(
        text.replace(/\s*\(\s*https?:\/\/[^)]*\)\s*$/i, ''),
      );
    }
  });

  it('normaliseKey: dot leaders, colons and spaces at the end', () => {
    expect(normaliseKey('Domain Name.......:')).toBe('domain name');
    expect(normaliseKey('Expiry date . . . . :  ')).toBe('expiry date');
    expect(normaliseKey('Registrar: :')).toBe('registrar');
  });
});

describe('whois value readers on long runs', () => {
  const RUN = 100_000;
  const fast = (read: () => unknown) => {
    const started = performance.now();
    read();
    // Generous: the expressions they replace took seconds on these runs.
    expect(performance.now() - started).toBeLessThan(500);
  };

  it('refuses a host name longer than 253 characters (RFC 1035 §2.3.4), and reads one of 253', () => {
    const longest = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`;
    expect(longest).toHaveLength(253);
    expect(cleanHostName(`${longest}.`)).toBe(longest);
    expect(cleanHostName(`a${longest}`)).toBeNull();
    fast(() => expect(cleanHostName(`a${'.'.repeat(RUN)}b`)).toBeNull());
    fast(() => expect(cleanHostName(`example.com${'.'.repeat(RUN)}`)).toBe('example.com'));
  });

  it('strips Nominet tags and web addresses from registrars, and refuses prose-length values', () => {
    expect(cleanRegistrar('Example Registrar Ltd [Tag = EXAMPLE]')).toBe('Example Registrar Ltd');
    expect(cleanRegistrar('Servicio Central (SeCIU-UdelaR) (http://www.nic.org.uy)  ')).toBe(
      'Servicio Central (SeCIU-UdelaR)',
    );
    expect(cleanRegistrar('Example (a [b]) [tag=x] ] ')).toBe('Example (a [b]) [tag=x] ]');
    expect(cleanRegistrar(`Example ${'x'.repeat(300)}`)).toBeNull();
    fast(() => expect(cleanRegistrar(`a${' '.repeat(RUN)}x`)).toBeNull());
  });

  it('finds an e-mail address after a long run without one', () => {
    fast(() => expect(readEmail(`${"'".repeat(RUN)} abuse@example.net`)).toBe('abuse@example.net'));
    expect(readEmail("mail o'brien+abuse@example.net now")).toBe("o'brien+abuse@example.net");
  });

  it('refuses a telephone number longer than a printed one can be', () => {
    expect(readPhone('+86.2862778877 ext 8359')).toBe('+86.2862778877 ext 8359');
    expect(readPhone(`+1 ${'2 '.repeat(40)}`)).toBeNull();
    fast(() => expect(readPhone(`(${' '.repeat(RUN)}x`)).toBeNull());
  });
});
