/**
 * The API key is verified once per request (an HMAC), by the app, and its outcome is passed down to the
 * REST shim, the GraphQL context and the log line: none of them verifies it again.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, TEST_KEY, type TestApp } from '../helpers/app.js';

const PUBLIC = '93.184.216.34'; // a value only: my-ip never connects anywhere

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function appCountingVerifications() {
  t = await createTestApp();
  return vi.spyOn(t.services.keyring, 'verify');
}

describe('authentication', () => {
  it('verifies the key of a REST request once, and logs its key id', async () => {
    const verify = await appCountingVerifications();
    const response = await t!.get('/api/v1/my-ip', { peer: PUBLIC });
    expect(response.status).toBe(200);
    expect(verify).toHaveBeenCalledTimes(1);
    expect(verify).toHaveBeenCalledWith(TEST_KEY);
    const line = t!.logs.find((l) => l.event === 'request');
    expect(line?.keyId).toEqual(expect.any(String));
  });

  it('verifies the key of a GraphQL operation once', async () => {
    const verify = await appCountingVerifications();
    const response = await t!.app.fetch(
      new Request('http://netdiag.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': TEST_KEY },
        body: JSON.stringify({ query: '{ a: myIp { ip } b: myIp { ip } }' }),
      }),
      { peerAddress: PUBLIC },
    );
    expect(response.status).toBe(200);
    expect(((await response.json()) as any).data.a.ip).toBe(PUBLIC);
    expect(response.headers.get('ratelimit-remaining')).not.toBeNull();
    expect(verify).toHaveBeenCalledTimes(1);
  });

  it('refuses an unknown key with 401 after one verification', async () => {
    const verify = await appCountingVerifications();
    const response = await t!.get('/api/v1/my-ip', { key: 'not-a-key', peer: PUBLIC });
    expect(response.status).toBe(401);
    expect(verify).toHaveBeenCalledTimes(1);
  });

  it('never reads a key for liveness', async () => {
    const verify = await appCountingVerifications();
    expect((await t!.get('/healthz')).status).toBe(200);
    expect(verify).not.toHaveBeenCalled();
  });
});
