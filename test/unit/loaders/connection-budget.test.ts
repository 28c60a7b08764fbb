/**
 * The per-request budget of connections to targets (src/loaders/connection-budget.ts, issue 31 finding 4):
 * 10 per credit, spent once per distinct question by the loaders, refused past the limit with FAN_OUT_LIMIT.
 */
import { describe, expect, it } from 'vitest';
import {
  CONNECTIONS_PER_CREDIT,
  ConnectionBudgetError,
  connectionBudgetFor,
  createConnectionBudget,
} from '../../../src/loaders/connection-budget.js';

describe('the connection budget', () => {
  it('is 10 connections per credit; a price of 0 counts as 1', () => {
    expect(CONNECTIONS_PER_CREDIT).toBe(10);
    expect(connectionBudgetFor(3)).toBe(30);
    expect(connectionBudgetFor(10)).toBe(100);
    expect(connectionBudgetFor(0)).toBe(10);
  });

  it('spends up to its limit, then refuses each further connection with FAN_OUT_LIMIT naming it', () => {
    const budget = createConnectionBudget(2);
    budget.spend('a');
    expect(budget).toMatchObject({ limit: 2, used: 1, remaining: 1 });
    budget.spend('b');
    expect(budget.remaining).toBe(0);
    let refused: unknown;
    try {
      budget.spend('a TLS handshake with 192.0.2.1 port 443');
    } catch (e) {
      refused = e;
    }
    expect(refused).toBeInstanceOf(ConnectionBudgetError);
    expect(refused).toMatchObject({
      code: 'FAN_OUT_LIMIT',
      status: 502,
      limit: 2,
      message:
        'a TLS handshake with 192.0.2.1 port 443 was not attempted: this request has opened the 2 connections to targets its price allows (10 per credit)',
    });
    expect(budget).toMatchObject({ used: 2, remaining: 0 });
  });
});
