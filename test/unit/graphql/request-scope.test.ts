/**
 * The request scope's signal (src/graphql/context.ts): aborted by the client going away, by the
 * request's bound, or by the end of the request, whichever comes first; ending releases its timer and
 * its listener, so nothing of a finished request waits for its bound to pass.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RequestScope } from '../../../src/graphql/context.js';
import type { Services } from '../../../src/services.js';
import { createTestApp, TEST_KEY, type TestApp } from '../../helpers/app.js';

const NO_SERVICES = {} as Services; // the signal needs none; the check context is not asked for

function scopeOf(deadlineMs: number, client = new AbortController()) {
  const request = new Request('http://netdiag.test/', { signal: client.signal });
  return { scope: new RequestScope(NO_SERVICES, request, deadlineMs), client };
}

let t: TestApp | undefined;
afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  await t?.close();
  t = undefined;
});

describe('RequestScope.signal', () => {
  it('makes no timer until the signal is asked for (my-ip never asks)', () => {
    vi.useFakeTimers();
    const { scope } = scopeOf(20_000);
    expect(vi.getTimerCount()).toBe(0);
    expect(scope.signal.aborted).toBe(false);
    expect(vi.getTimerCount()).toBe(1);
  });

  it('aborts when the bound passes, with a time-out reason', () => {
    vi.useFakeTimers();
    const { scope } = scopeOf(20_000);
    const { signal } = scope;
    vi.advanceTimersByTime(19_999);
    expect(signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(signal.reason).toMatchObject({ name: 'TimeoutError', message: expect.stringMatching(/20000 ms bound/) });
  });

  it('aborts when the client goes away, and its timer is gone', () => {
    vi.useFakeTimers();
    const { scope, client } = scopeOf(20_000);
    const { signal } = scope;
    client.abort(new Error('client closed the connection'));
    expect(signal.reason).toMatchObject({ message: 'client closed the connection' });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('is aborted at once when the client had already gone', () => {
    const client = new AbortController();
    client.abort(new Error('gone'));
    expect(scopeOf(20_000, client).scope.signal.reason).toMatchObject({ message: 'gone' });
  });

  it('end() aborts the work still running, releases the timer and stops listening to the client', () => {
    vi.useFakeTimers();
    const { scope, client } = scopeOf(20_000);
    const { signal } = scope;
    scope.end();
    expect(signal.reason).toMatchObject({ name: 'AbortError', message: 'the request has ended' });
    expect(vi.getTimerCount()).toBe(0);
    client.abort(new Error('later'));
    vi.advanceTimersByTime(30_000);
    expect(signal.reason).toMatchObject({ message: 'the request has ended' });
  });

  it('end() on a scope whose signal was never made makes none', () => {
    vi.useFakeTimers();
    const { scope } = scopeOf(20_000);
    scope.end();
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('the end of a request', () => {
  it('ends the scope of a REST request and of a GraphQL operation once their answers are made', async () => {
    t = await createTestApp();
    const end = vi.spyOn(RequestScope.prototype, 'end');

    const rest = await t.get('/api/v1/ip-info?target=8.8.8.8');
    expect(rest.status).toBe(200);
    expect(end).toHaveBeenCalledTimes(1);
    const restScope = end.mock.contexts[0] as RequestScope;
    expect(restScope.signal.reason).toMatchObject({ message: 'the request has ended' });

    const operation = await t.app.fetch(
      new Request('http://netdiag.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': TEST_KEY },
        body: JSON.stringify({ query: '{ ipInfo(target: "8.8.8.8") { ip } }' }),
      }),
      { peerAddress: '93.184.216.34' },
    );
    expect(operation.status).toBe(200);
    expect(await operation.json()).toMatchObject({ data: { ipInfo: { ip: '8.8.8.8' } } });
    expect(end).toHaveBeenCalledTimes(2);
    expect((end.mock.contexts[1] as RequestScope).signal.aborted).toBe(true);
  });
});
