import { describe, expect, it } from 'vitest';
import { allResolversFailed, evaluatePropagation, normaliseRecordText, recordSetKey } from './propagation.js';
import type { ResolverOutcome } from './propagation.js';

function resolver(n: number) {
  return { name: `R${n}`, ip: `192.0.2.${n}`, countryCode: 'US' };
}
function answer(n: number, records: string[], responseTime = 10): ResolverOutcome {
  return { kind: 'answer', resolver: resolver(n), records, responseTime };
}
function failure(n: number, error = 'DNS server did not answer within 2000 ms'): ResolverOutcome {
  return { kind: 'error', resolver: resolver(n), error, responseTime: 2000 };
}

describe('normaliseRecordText and recordSetKey', () => {
  it.each([
    ['A', '192.0.2.1', '192.0.2.1'],
    ['AAAA', '2001:DB8:0:0:0:0:0:1', '2001:db8::1'],
    ['AAAA', '2001:db8::0:1', '2001:db8::1'],
    ['CNAME', 'Target.Example.COM.', 'target.example.com'],
    ['NS', 'ns1.example.com.', 'ns1.example.com'],
    ['MX', '10  MX.Example.com.', '10 mx.example.com'],
    ['SOA', 'NS1.example.com. Host.example.com. 5 1 2 3 4', 'ns1.example.com host.example.com 5 1 2 3 4'],
    ['TXT', 'V=SPF1 -ALL', 'v=spf1 -all'],
  ])('%s %j → %j', (type, text, normal) => {
    expect(normaliseRecordText(type, text)).toBe(normal);
  });

  it('ignores order, duplicates and case', () => {
    expect(recordSetKey('A', ['192.0.2.2', '192.0.2.1', '192.0.2.1'])).toBe(
      recordSetKey('A', ['192.0.2.1', '192.0.2.2']),
    );
    expect(recordSetKey('MX', ['10 MX.example.com'])).toBe(recordSetKey('MX', ['10 mx.example.com.']));
    expect(recordSetKey('A', ['192.0.2.1'])).not.toBe(recordSetKey('A', ['192.0.2.1', '192.0.2.2']));
  });
});

describe('evaluatePropagation', () => {
  it('is propagated when every answering resolver matches the authoritative answer; failures are listed', () => {
    const result = evaluatePropagation({
      domain: 'example.com',
      type: 'A',
      authoritative: ['192.0.2.1', '192.0.2.2'],
      outcomes: [answer(1, ['192.0.2.2', '192.0.2.1']), answer(2, ['192.0.2.1', '192.0.2.2']), failure(3)],
    });
    expect(result.status).toBe('propagated');
    expect(result.expectedSource).toBe('authoritative');
    expect(result.expected).toEqual(['192.0.2.1', '192.0.2.2']);
    expect(result.unreachable).toEqual(['R3']);
    expect(result.resolvers).toEqual([
      {
        name: 'R1',
        ip: '192.0.2.1',
        countryCode: 'US',
        records: ['192.0.2.2', '192.0.2.1'],
        error: null,
        responseTime: 10,
        matches: true,
      },
      {
        name: 'R2',
        ip: '192.0.2.2',
        countryCode: 'US',
        records: ['192.0.2.1', '192.0.2.2'],
        error: null,
        responseTime: 10,
        matches: true,
      },
      {
        name: 'R3',
        ip: '192.0.2.3',
        countryCode: 'US',
        records: [],
        error: 'DNS server did not answer within 2000 ms',
        responseTime: 2000,
        matches: false,
      },
    ]);
  });

  it('is partial when some answering resolvers differ', () => {
    const result = evaluatePropagation({
      domain: 'example.com',
      type: 'A',
      authoritative: ['192.0.2.9'],
      outcomes: [answer(1, ['192.0.2.9']), answer(2, ['192.0.2.1'])],
    });
    expect(result.status).toBe('partial');
    expect(result.resolvers.map((r) => r.matches)).toEqual([true, false]);
  });

  it('is not-propagated when no resolver matches', () => {
    const result = evaluatePropagation({
      domain: 'example.com',
      type: 'A',
      authoritative: ['192.0.2.9'],
      outcomes: [answer(1, ['192.0.2.1']), answer(2, ['192.0.2.1']), failure(3)],
    });
    expect(result.status).toBe('not-propagated');
  });

  it('treats an empty authoritative answer (NXDOMAIN/NODATA) as the expected set', () => {
    const result = evaluatePropagation({
      domain: 'gone.example.com',
      type: 'A',
      authoritative: [],
      outcomes: [answer(1, []), answer(2, ['192.0.2.1'])],
    });
    expect(result.status).toBe('partial');
    expect(result.resolvers.map((r) => r.matches)).toEqual([true, false]);
  });

  it('uses the majority answer when no authoritative server answered', () => {
    const result = evaluatePropagation({
      domain: 'example.com',
      type: 'MX',
      authoritative: null,
      outcomes: [
        answer(1, ['10 old.example.com']),
        answer(2, ['10 NEW.example.com.']),
        answer(3, ['10 new.example.com']),
        failure(4),
      ],
    });
    expect(result.expectedSource).toBe('majority');
    expect(result.expected).toEqual(['10 NEW.example.com.']);
    expect(result.status).toBe('partial');
    expect(result.resolvers.map((r) => r.matches)).toEqual([false, true, true, false]);
  });

  it('breaks a majority tie by resolver order, deterministically', () => {
    const outcomes = [
      answer(1, ['192.0.2.1']),
      answer(2, ['192.0.2.2']),
      answer(3, ['192.0.2.2']),
      answer(4, ['192.0.2.1']),
    ];
    const result = evaluatePropagation({ domain: 'example.com', type: 'A', authoritative: null, outcomes });
    expect(result.expected).toEqual(['192.0.2.1']);
    const reversed = evaluatePropagation({
      domain: 'example.com',
      type: 'A',
      authoritative: null,
      outcomes: [...outcomes].reverse(),
    });
    expect(reversed.expected).toEqual(['192.0.2.1']);
    const swapped = evaluatePropagation({
      domain: 'example.com',
      type: 'A',
      authoritative: null,
      outcomes: [answer(2, ['192.0.2.2']), answer(1, ['192.0.2.1'])],
    });
    expect(swapped.expected).toEqual(['192.0.2.2']);
  });

  it('is not-propagated with every resolver failing, which the caller turns into a 502', () => {
    const outcomes = [failure(1), failure(2, 'SERVFAIL')];
    expect(allResolversFailed(outcomes)).toBe(true);
    const result = evaluatePropagation({ domain: 'example.com', type: 'A', authoritative: ['192.0.2.1'], outcomes });
    expect(result.status).toBe('not-propagated');
    expect(result.unreachable).toEqual(['R1', 'R2']);
  });

  it('allResolversFailed is false as soon as one resolver answered', () => {
    expect(allResolversFailed([failure(1), answer(2, [])])).toBe(false);
    expect(allResolversFailed([])).toBe(true);
  });
});
