/**
 * Threat: stealing, guessing or reusing API keys. Keys never leave the service in a log line, a metrics
 * label or an error message; an issued key cannot be forged without the secret, and a revoked one stays
 * revoked; static keys are found by digest and issued tags checked with timingSafeEqual (src/platform/keys.ts).
 */
import { describe, expect, it } from 'vitest';
import { createKeyring } from '../../src/platform/keys.js';
import { createTestApp, graphql } from '../helpers/app.js';

const SECRET = 'a-secret-of-the-test-deployment';

describe('API keys', () => {
  it('never appear in logs, metrics or answers, whatever happens to the request', async () => {
    const issuer = createKeyring({ staticKeys: [], secret: SECRET, revoked: [] });
    const issued = issuer.issue().key;
    const revokedKey = issuer.issue().key;
    const staticKey = 'static-key-abcdef-123456';
    const unknown = 'unknown-key-zyxwvu-987654';
    const t = await createTestApp({
      auth: { keys: [staticKey], secret: SECRET, revoked: [revokedKey] },
      quota: { credits: 6, costs: { 'ip-info': 3 } },
    });
    const answers: string[] = [];
    const keep = async (res: Response) => answers.push(JSON.stringify([...res.headers]) + (await res.text()));
    try {
      for (const key of [staticKey, issued, revokedKey, unknown]) {
        await keep(await t.get('/api/v1/ip-info?target=8.8.8.8', { key }));
        await keep(await t.get(`/api/v1/ip-info?target=8.8.8.8&api_key=${encodeURIComponent(key)}`, { key: null }));
        await keep(await t.get('/api/v1/dns-lookup?domain=example.com', { key })); // 502 upstream, or 401/429
        await keep(await t.get('/api/v1/ip-info?target=10.0.0.1', { key })); // 400
        const gql = await graphql(
          t,
          '{ ipInfo(target: "8.8.8.8") { asn } dnsLookup(domain: "example.com") { domain } }',
          {},
          { key },
        );
        answers.push(JSON.stringify(gql.body));
      }
      answers.push(await t.services.metrics.exposition());
      const everything = answers.join('\n') + JSON.stringify(t.logs);
      expect(t.logs.some((l) => l.event === 'request' && l.status === 401)).toBe(true);
      expect(t.logs.some((l) => l.event === 'request' && l.status === 429)).toBe(true);
      for (const key of [staticKey, issued, revokedKey, unknown]) expect(everything).not.toContain(key);
    } finally {
      await t.close();
    }
  });

  it('issued keys cannot be forged without the secret, and revocation holds', () => {
    const ring = createKeyring({ staticKeys: [], secret: SECRET, revoked: [] });
    const { key, identity } = ring.issue();
    expect(ring.verify(key)).toEqual(identity);
    // another deployment's secret, a changed tag, a changed id: all unknown
    expect(createKeyring({ staticKeys: [], secret: 'another-deployment-secret', revoked: [] }).verify(key)).toBeNull();
    const lastTagChar = key.at(-1) === 'A' ? 'B' : 'A';
    expect(ring.verify(key.slice(0, -1) + lastTagChar)).toBeNull();
    const idChar = key[3] === 'A' ? 'B' : 'A';
    expect(ring.verify(key.slice(0, 3) + idChar + key.slice(4))).toBeNull();
    // revoked: refused on every instance that lists it, however often it is replayed
    const revoking = createKeyring({ staticKeys: [], secret: SECRET, revoked: [key] });
    for (let i = 0; i < 3; i++) expect(revoking.verify(key)).toBeNull();
  });

  it('a static key is its whole string: a prefix, a longer string or another case is unknown', () => {
    const ring = createKeyring({ staticKeys: ['Static-Key-123456'], secret: SECRET, revoked: [] });
    expect(ring.verify('Static-Key-123456')?.kind).toBe('static');
    for (const other of ['Static-Key-12345', 'Static-Key-1234567', 'static-key-123456', ''])
      expect(ring.verify(other)).toBeNull();
  });
});
