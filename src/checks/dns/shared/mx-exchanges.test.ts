import { describe, expect, it } from 'vitest';
import { bestExchanges, followedAddresses, isNullMx } from './mx-exchanges.js';
import type { MxEntry } from './records.js';
import { MX_MAX_ADDRESSES_PER_EXCHANGE, MX_MAX_EXCHANGES } from '../../../loaders/fan-out-limits.js';

const mx = (priority: number, exchange: string): MxEntry => ({ priority, exchange, type: 'MX' });

describe('bestExchanges', () => {
  it('keeps every host of an honest domain, by priority (RFC 5321 §5.1), ties by name', () => {
    expect(bestExchanges([mx(20, 'b.test'), mx(10, 'z.test'), mx(20, 'a.test')])).toEqual({
      followed: [mx(10, 'z.test'), mx(20, 'a.test'), mx(20, 'b.test')],
      omitted: 0,
    });
  });

  it(`follows the ${MX_MAX_EXCHANGES} best of many, the same ones whatever the answer's order`, () => {
    const records = Array.from({ length: 400 }, (_, i) => mx(i % 50, `mx${i}.test`));
    const best = bestExchanges(records);
    expect(best.omitted).toBe(390);
    expect(best.followed.map((r) => `${r.priority} ${r.exchange}`)).toEqual([
      '0 mx0.test',
      '0 mx100.test',
      '0 mx150.test',
      '0 mx200.test',
      '0 mx250.test',
      '0 mx300.test',
      '0 mx350.test',
      '0 mx50.test',
      '1 mx1.test',
      '1 mx101.test',
    ]);
    expect(bestExchanges([...records].reverse())).toEqual(best);
  });

  it('a null MX is no host (RFC 7505)', () => {
    expect(isNullMx([mx(0, '.')])).toBe(true);
    expect(isNullMx([mx(0, '.'), mx(10, 'mx.test')])).toBe(false);
    expect(bestExchanges([mx(0, '.')])).toEqual({ followed: [], omitted: 0 });
  });
});

describe('followedAddresses', () => {
  it(`keeps the first ${MX_MAX_ADDRESSES_PER_EXCHANGE} in the order given and counts the rest`, () => {
    expect(followedAddresses(['a', 'b'])).toEqual({ followed: ['a', 'b'], omitted: 0 });
    expect(followedAddresses(['a', 'b', 'c', 'd', 'e', 'f'])).toEqual({ followed: ['a', 'b', 'c', 'd'], omitted: 2 });
  });
});
