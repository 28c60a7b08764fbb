/**
 * Threat: learning the operator's internal addresses from error messages. The service's own resolver
 * (`dns.system`) sits inside the operator's network: a failure of it reaches the client as "the service's
 * resolver", in REST and GraphQL and in a composite's part, while the log keeps the address. (The shared
 * store's errors are covered in test/integration/scale-out.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, graphql, type TestApp } from '../helpers/app.js';
import { rr, startDnsLab, type DnsLab } from '../lab/dns-server.js';

let lab: DnsLab;
let t: TestApp;
let resolver: string;

beforeAll(async () => {
  lab = await startDnsLab({ authoritative: false, records: [rr.a('fine.test', '192.0.2.1')] });
  lab.setBehaviour('broken.test', { servfail: true });
  resolver = `127.0.0.1:${lab.port}`;
  t = await createTestApp({ dns: { system: [resolver], timeoutMs: 1000 } });
});
afterAll(async () => {
  await t?.close();
  await lab?.close();
});

describe("the service's resolver", () => {
  it('is named, never located, when it fails: REST, GraphQL message and extensions', async () => {
    const rest = await t.get('/api/v1/mx-lookup?domain=broken.test');
    expect(rest.status).toBe(502);
    const { error } = await rest.json();
    expect(error).toBe("the service's resolver answered MX broken.test with rcode SERVFAIL");
    expect(error).not.toContain(String(lab.port));

    const gql = await graphql(t, '{ mxLookup(domain: "broken.test") { domain } }');
    expect(gql.body.errors[0].message).not.toContain(String(lab.port));
    expect(gql.body.errors[0].extensions).toMatchObject({
      code: 'UPSTREAM_FAILED',
      upstream: "the service's resolver",
    });
    expect(t.logs.find((l) => l.event === 'own_resolver_failed')).toMatchObject({ upstream: resolver });
  });

  it('is named, never located, in a composite check part', async () => {
    const res = await t.get('/api/v1/mailhealth-check?domain=broken.test');
    expect(JSON.stringify(await res.json())).not.toContain(resolver);
  });
});
