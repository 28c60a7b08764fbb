import { describe, expect, it } from 'vitest';
import { heapGrowthFlag } from '../../src/heap-growth.js';

describe('server.heapGrowthPercent', () => {
  it('becomes the V8 growth flag', () => {
    expect(heapGrowthFlag(30)).toBe('--heap-growing-percent=30');
  });

  it('0 leaves V8 its own heuristics', () => {
    expect(heapGrowthFlag(0)).toBeNull();
  });

  it('refuses what is not a percentage', () => {
    expect(() => heapGrowthFlag(-1)).toThrow(RangeError);
    expect(() => heapGrowthFlag(2.5)).toThrow(RangeError);
  });
});
