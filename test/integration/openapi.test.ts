import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restRoutes } from '../../src/rest/routes.js';
import { rr, startDnsLab, type DnsLab } from '../lab/dns-server.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { openApiDocument, openApiMismatches } from '../helpers/openapi.js';

let lab: DnsLab;
let t: TestApp;
beforeAll(async () => {
  lab = await startDnsLab({
    authoritative: false,
    records: [rr.a('example.test', '8.8.8.8'), rr.mx('example.test', 10, 'example.test')],
  });
  t = await createTestApp({ dns: { system: [`127.0.0.1:${lab.port}`] }, server: { trustedProxies: ['127.0.0.1/32'] } });
});
afterAll(async () => {
  await t.close();
  await lab.close();
});

describe('OpenAPI document', () => {
  it('is served without a key and is a valid OpenAPI 3.1 document', async () => {
    const res = await t.get('/api/v1/openapi.json', { key: null });
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('is sent compressed to a client that accepts it, with an ETag that answers 304', async () => {
    const plain = await t.get('/api/v1/openapi.json', { key: null });
    const plainBytes = (await plain.arrayBuffer()).byteLength;
    for (const coding of ['br', 'gzip']) {
      const res = await t.get('/api/v1/openapi.json', { key: null, headers: { 'accept-encoding': coding } });
      expect(res.headers.get('content-encoding')).toBe(coding);
      expect(res.headers.get('vary')).toBe('accept-encoding');
      expect((await res.arrayBuffer()).byteLength).toBeLessThan(plainBytes / 4);
    }
    const etag = plain.headers.get('etag')!;
    expect(plain.headers.get('cache-control')).toBe('no-cache');
    const again = await t.get('/api/v1/openapi.json', { key: null, headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });

  it('documents every route of the table, with its parameters, cost and both key channels', () => {
    const doc = openApiDocument();
    expect(Object.keys(toolPaths(doc)).sort()).toEqual([...restRoutes.keys()].map((t) => `/api/v1/${t}`).sort());
    // beside them, the job routes (docs/jobs.md), the only ones that are not GET tools
    expect(
      Object.keys(doc.paths)
        .filter((p) => p.startsWith('/api/v1/jobs'))
        .sort(),
    ).toEqual(['/api/v1/jobs', '/api/v1/jobs/{id}', '/api/v1/jobs/{id}/events', '/api/v1/jobs/{id}/results']);
    // and the monitor routes and badges (docs/monitors.md)
    expect(
      Object.keys(doc.paths)
        .filter((p) => p.startsWith('/api/v1/monitors') || p.startsWith('/badge/'))
        .sort(),
    ).toEqual([
      '/api/v1/monitors',
      '/api/v1/monitors/{id}',
      '/api/v1/monitors/{id}/events',
      '/api/v1/monitors/{id}/history',
      '/api/v1/monitors/{id}/run',
      '/badge/{id}/{check}.svg',
    ]);
    expect(doc.components.securitySchemes).toEqual({
      ApiKeyHeader: { type: 'apiKey', in: 'header', name: 'x-api-key' },
      ApiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key' },
    });
    const dnsLookup = doc.paths['/api/v1/dns-lookup'].get;
    expect(dnsLookup['x-credit-cost']).toBe(3);
    expect(dnsLookup.parameters).toEqual([
      expect.objectContaining({ name: 'domain', in: 'query', required: true }),
      expect.objectContaining({ name: 'resolver', in: 'query', required: false }),
    ]);
    expect(doc.paths['/api/v1/my-ip'].get['x-credit-cost']).toBe(1);
    for (const status of ['200', '400', '401', '429', '502', '504']) expect(dnsLookup.responses[status]).toBeDefined();
  });

  it('groups the operations by family and names a schema for each result type', () => {
    const doc = openApiDocument();
    expect(doc.tags.map((t: { name: string }) => t.name)).toEqual([
      'DNS',
      'Mail',
      'Mail transport',
      'TLS/HTTP',
      'Registry',
      'IP',
      'Composite',
      'Jobs',
      'Monitors',
    ]);
    for (const [path, item] of Object.entries<any>(toolPaths(doc))) {
      expect(item.get.tags, path).toHaveLength(1);
      const data = item.get.responses['200'].content['application/json'].schema.properties.data;
      expect(data.$ref, path).toMatch(/^#\/components\/schemas\/[A-Za-z_]+$/);
      expect(doc.components.schemas[data.$ref.split('/').pop()], path).toBeDefined();
    }
    expect(doc.paths['/api/v1/mailhealth-check'].get.tags).toEqual(['Composite']);
    // null only where the GraphQL field is nullable: asn is String!, resolvedFrom is String
    const ipInfo = doc.components.schemas.IpInfo.properties;
    expect(ipInfo.asn.type).toBe('string');
    expect(ipInfo.resolvedFrom.type).toEqual(['string', 'null']);
    expect(
      doc.paths['/api/v1/dns-lookup'].get.responses['200'].content['application/json'].schema.properties.data,
    ).toEqual({
      $ref: '#/components/schemas/DnsLookup',
    });
  });

  it('shows for every operation an example recorded from the tests, which the document accepts', () => {
    const doc = openApiDocument();
    for (const [path, item] of Object.entries<any>(toolPaths(doc))) {
      const tool = path.split('/').pop()!;
      const example = item.get.responses['200'].content['application/json'].examples?.recorded?.value;
      expect(example, `${tool}: run npm run openapi:examples`).toBeDefined();
      expect(openApiMismatches(tool, 200, example), tool).toEqual([]);
      for (const parameter of item.get.parameters.filter((p: any) => p.required)) {
        expect(parameter.example, `${tool} ${parameter.name}`).toBeDefined();
      }
    }
  });

  it('describes exactly what the routes return', async () => {
    const calls: Array<[string, string, Record<string, string>?]> = [
      ['my-ip', '/api/v1/my-ip', { 'x-forwarded-for': '8.8.4.4' }],
      ['what-is-my-ip', '/api/v1/what-is-my-ip', { 'x-forwarded-for': '8.8.4.4' }],
      ['dns-lookup', '/api/v1/dns-lookup?domain=example.test'],
      ['dns-lookup', '/api/v1/dns-lookup?domain=bad_name'],
      ['mx-lookup', '/api/v1/mx-lookup?domain=example.test'],
      ['ip-info', '/api/v1/ip-info?target=8.8.8.8'],
      ['asn-lookup', '/api/v1/asn-lookup?target=example.test'],
    ];
    for (const [tool, path, headers] of calls) {
      const res = await t.get(path, { headers });
      const body = await res.json();
      expect({ path, mismatches: openApiMismatches(tool, res.status, body) }).toEqual({ path, mismatches: [] });
    }
    const unauthenticated = await t.get('/api/v1/mx-lookup?domain=example.test', { key: null });
    expect(openApiMismatches('mx-lookup', 401, await unauthenticated.json())).toEqual([]);
  });

  it('catches a shape that drifts from the document', () => {
    expect(
      openApiMismatches('my-ip', 200, { ok: true, data: { ip: '1.2.3.4' }, meta: { tool: 'my-ip', version: 'v1' } }),
    ).not.toEqual([]);
  });
});

/** The GET tools' paths (the job and monitor routes aside: they are described in test/integration/jobs/ and monitors/). */
function toolPaths(doc: { paths: Record<string, unknown> }): Record<string, any> {
  return Object.fromEntries(
    Object.entries(doc.paths).filter(
      ([path]) =>
        !path.startsWith('/api/v1/jobs') && !path.startsWith('/api/v1/monitors') && !path.startsWith('/badge/'),
    ),
  );
}
