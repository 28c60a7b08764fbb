/**
 * RDAP hosts come from upstream text (registry links, redirects): every address is checked like a
 * caller's target before anything is sent. Loopback plays the refused private network here.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createTargetGuard } from '../../../../src/probes/guard.js';
import { createGuardedRdapDispatcher } from '../../../../src/probes/registry/rdap-dispatcher.js';
import { createRdapClient } from '../../../../src/probes/registry/rdap.js';
import { startRdapLab, type RdapLab } from '../../../lab/rdap-server.js';

const DOMAIN = { objectClassName: 'domain', ldhName: 'example.com' };

let lab: RdapLab | undefined;
afterEach(async () => {
  await lab?.close();
  lab = undefined;
});

function guardedClient(allow: string[]) {
  const guard = createTargetGuard({ allow, resolve: () => Promise.reject(new Error('unused')) });
  const assertAllowed = (address: string, target: string) => guard.assertAllowed(address, target);
  return createRdapClient({ dispatcher: createGuardedRdapDispatcher(assertAllowed), assertAllowed });
}

describe('RDAP behind the address check', () => {
  it('refuses an IP-literal host in a special-purpose range without connecting', async () => {
    lab = await startRdapLab({ '/domain/example.com': { json: DOMAIN } });
    const answer = guardedClient([]).getDomain(lab.url, 'example.com', { timeoutMs: 2000 });
    await expect(answer).rejects.toMatchObject({
      kind: 'REFUSED',
      message: expect.stringMatching(/is not contacted: .*loopback/),
    });
    expect(lab.requests).toHaveLength(0);
  });

  it('refuses a host NAME that resolves into a special-purpose range (localhost, from /etc/hosts)', async () => {
    lab = await startRdapLab({ '/domain/example.com': { json: DOMAIN } });
    const byName = lab.url.replace('127.0.0.1', 'localhost');
    const answer = guardedClient([]).getDomain(byName, 'example.com', { timeoutMs: 2000 });
    await expect(answer).rejects.toMatchObject({ kind: 'REFUSED', message: expect.stringMatching(/is not contacted/) });
    expect(lab.requests).toHaveLength(0);
  });

  it('refuses a redirect that leads into a special-purpose range', async () => {
    lab = await startRdapLab({ '/domain/example.com': { json: DOMAIN } });
    const refusedPort = new URL(lab.url).port;
    const redirector = await startRdapLab({
      '/domain/example.com': { redirect: `http://127.0.0.2:${refusedPort}/domain/example.com` },
    });
    try {
      const answer = guardedClient(['127.0.0.1/32']).getDomain(redirector.url, 'example.com', { timeoutMs: 2000 });
      await expect(answer).rejects.toMatchObject({
        kind: 'REFUSED',
        message: expect.stringMatching(/127\.0\.0\.2.* is not contacted: .*loopback/),
      });
      expect(redirector.requests).toHaveLength(1);
    } finally {
      await redirector.close();
    }
  });

  it('lets targets.allow exempt the range, by literal and by name', async () => {
    lab = await startRdapLab({ '/domain/example.com': { json: DOMAIN } });
    const client = guardedClient(['127.0.0.0/8', '::1/128']);
    expect((await client.getDomain(lab.url, 'example.com', { timeoutMs: 2000 })).json).toEqual(DOMAIN);
    expect(
      (await client.getDomain(lab.url.replace('127.0.0.1', 'localhost'), 'example.com', { timeoutMs: 2000 })).json,
    ).toEqual(DOMAIN);
  });
});
