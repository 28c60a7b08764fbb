import { describe, expect, it } from 'vitest';
import { MAX_PARAMETER_LENGTH, checkParameterText, parsePort, parseSelector } from '../../../src/validation.js';
import { expectInputError } from './expect-input-error.js';

describe('checkParameterText', () => {
  it('returns the trimmed text', () => {
    expect(checkParameterText('domain', '  example.com ')).toBe('example.com');
    expect(checkParameterText('domain', 'bücher.example')).toBe('bücher.example');
  });

  it.each([
    ['NUL', '\u0000', 'U+0000'],
    ['tab', 'a\tb', 'U+0009'],
    ['line feed', 'example.com\n', 'U+000A'],
    ['carriage return', 'a\rb', 'U+000D'],
    ['escape', '\u001b[31m', 'U+001B'],
    ['DEL', 'a\u007f', 'U+007F'],
    ['C1 NEL', 'a\u0085', 'U+0085'],
    ['C1 CSI', 'a\u009b', 'U+009B'],
  ])('refuses a %s control character', (_name, value, codePoint) => {
    expectInputError(() => checkParameterText('domain', value), 'domain', `control character ${codePoint}`);
  });

  it('gives the position of the control character', () => {
    expectInputError(() => checkParameterText('host', 'abc\u0000'), 'host', 'at position 4');
  });

  it('refuses an unpaired surrogate', () => {
    expectInputError(() => checkParameterText('domain', 'a\ud800b'), 'domain', 'unpaired surrogate');
    expect(checkParameterText('domain', 'a\u{1f600}b')).toBe('a\u{1f600}b');
  });

  it.each(['', ' ', '   ', '\u3000'])('refuses the empty value %j', (value) => {
    expectInputError(() => checkParameterText('url', value), 'url', 'must not be empty');
  });

  it('accepts exactly 2048 characters and refuses 2049', () => {
    expect(MAX_PARAMETER_LENGTH).toBe(2048);
    expect(checkParameterText('url', 'a'.repeat(2048))).toHaveLength(2048);
    expectInputError(() => checkParameterText('url', 'a'.repeat(2049)), 'url', 'is 2049 characters long; at most 2048');
  });

  it('counts characters, not UTF-16 units', () => {
    const astral = '\u{1f600}'.repeat(2048);
    expect(checkParameterText('q', astral)).toBe(astral);
    expectInputError(() => checkParameterText('q', `${astral}a`), 'q', 'is 2049 characters long');
  });

  it('refuses a huge value quickly and names its length', () => {
    expectInputError(() => checkParameterText('q', 'x'.repeat(1_000_000)), 'q', 'is 1000000 characters long');
  });
});

describe('parsePort', () => {
  it.each([
    ['1', 1],
    ['80', 80],
    ['443', 443],
    ['65535', 65535],
    ['0443', 443],
  ])('%j → %d', (value, port) => {
    expect(parsePort('port', value)).toBe(port);
  });

  it.each(['+80', '-1', '80.0', '8e1', '0x50', ' 80', '80 ', '8 0', '٨٠', '80a', 'eighty', '1_000'])(
    'refuses %j as not digits only',
    (value) => {
      expectInputError(() => parsePort('port', value), 'port', 'is not a port number; digits only, 1–65535');
    },
  );

  it.each(['0', '00', '65536', '99999', '1'.repeat(400)])('refuses %j as out of range', (value) => {
    expectInputError(() => parsePort('port', value), 'port', 'is out of range; a port is 1–65535');
  });

  it('applies the common text rules first', () => {
    expectInputError(() => parsePort('port', ''), 'port', 'must not be empty');
    expectInputError(() => parsePort('port', '80\n'), 'port', 'control character U+000A');
  });
});

describe('parseSelector', () => {
  it.each([
    ['default', 'default'],
    ['google', 'google'],
    ['selector1', 'selector1'],
    ['s1024', 's1024'],
    ['k_1', 'k_1'],
    ['mail-2024', 'mail-2024'],
    ['Selector1', 'Selector1'], // case kept
    ['eu.mail', 'eu.mail'], // RFC 6376 §3.1: sub-domains are allowed
    ['a'.repeat(63), 'a'.repeat(63)],
    ['  k1 ', 'k1'],
    ['k1._domainkey', 'k1._domainkey'], // only the characters matter
  ])('%j → %j', (value, expected) => {
    expect(parseSelector('selector', value)).toBe(expected);
  });

  it.each([
    ['my selector', 'contains " "'],
    ['k1/', 'contains "/"'],
    ['k1@x', 'contains "@"'],
    ['sélecteur', 'contains "é"'],
    ['.k1', 'has an empty label'],
    ['k1.', 'has an empty label'],
    ['a..b', 'has an empty label'],
    ['a'.repeat(64), 'is 64 characters; a DNS label has at most 63'],
  ])('refuses %j', (value, fragment) => {
    expectInputError(() => parseSelector('selector', value), 'selector', fragment);
  });

  it('refuses a selector longer than 253 characters', () => {
    const long = Array.from({ length: 5 }, () => 'a'.repeat(60)).join('.');
    expectInputError(
      () => parseSelector('selector', long),
      'selector',
      'is 304 characters long; a selector has at most 253',
    );
  });
});
