import { describe, expect, it } from 'vitest';
import { NetdiagError } from '../../../src/errors.js';
import { createQuestionBudget, FanOutLimitError } from '../../../src/loaders/question-budget.js';

describe('the question budget', () => {
  it('charges each distinct question once, then refuses with FAN_OUT_LIMIT (502)', () => {
    const budget = createQuestionBudget(2);
    budget.charge('a', 'A a.test');
    budget.charge('a', 'A a.test');
    budget.charge('b', 'A b.test');
    expect(budget.charged).toBe(2);
    budget.charge('b', 'A b.test');
    let refused: unknown;
    try {
      budget.charge('c', 'the DNS question c.test A');
    } catch (e) {
      refused = e;
    }
    expect(refused).toBeInstanceOf(FanOutLimitError);
    expect(refused).toBeInstanceOf(NetdiagError);
    expect(refused).toMatchObject({ code: 'FAN_OUT_LIMIT', status: 502, limit: 2 });
    expect((refused as Error).message).toBe(
      'the DNS question c.test A was not asked: this request has asked the 2 DNS questions one request may ask (the records it follows fan out too far)',
    );
    expect(budget.charged).toBe(2);
  });
});
