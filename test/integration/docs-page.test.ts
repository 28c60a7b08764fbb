/** The API reference at /docs: a small page over the OpenAPI document, its assets hashed, compressed and cached. */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

const assetsOf = (html: string) => [...html.matchAll(/(?:src|href)="(\/docs\/assets\/[^"]+)"/g)].map((m) => m[1]!);

describe('/docs', () => {
  it('is a small page that loads Swagger UI from this service over the OpenAPI document', async () => {
    t = await createTestApp();
    const res = await t.get('/docs', { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toMatch(/script-src 'self';/);
    const html = await res.text();
    expect(Buffer.byteLength(html)).toBeLessThan(2048);
    const assets = assetsOf(html);
    expect(assets).toHaveLength(3);
    expect(html).not.toMatch(/https?:\/\//); // nothing from elsewhere
    const init = await (
      await t.get(assets.find((a) => a.includes('/init.'))!, { key: null, headers: { 'accept-encoding': 'identity' } })
    ).text();
    expect(init).toContain('"/api/v1/openapi.json"');
  });

  it('sends each asset compressed as the client accepts, immutable, with an ETag and 304', async () => {
    t = await createTestApp();
    const script = assetsOf(await (await t.get('/docs', { key: null })).text()).find((a) =>
      a.includes('swagger-ui-bundle'),
    )!;
    expect(script).toMatch(/swagger-ui-bundle\.[A-Za-z0-9_-]{16}\.js$/);

    const plain = await t.get(script, { key: null, headers: { 'accept-encoding': 'identity' } });
    const original = Buffer.from(await plain.arrayBuffer());
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');

    const br = await t.get(script, { key: null, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    const brBody = Buffer.from(await br.arrayBuffer());
    expect(brBody.length).toBeLessThan(original.length / 3);
    expect(brotliDecompressSync(brBody).equals(original)).toBe(true);

    const gz = await t.get(script, { key: null, headers: { 'accept-encoding': 'gzip;q=1, br;q=0' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).equals(original)).toBe(true);

    const etag = plain.headers.get('etag')!;
    const again = await t.get(script, { key: null, headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect((await t.get('/docs/assets/swagger-ui-bundle.0000000000000000.js', { key: null })).status).toBe(404);
  });
});

describe('GraphiQL', () => {
  it('serves its assets before its page was ever rendered (any worker, from the first visit)', async () => {
    // the build prepared them (src/web/assets.ts); a fresh app has rendered nothing yet
    const first = await createTestApp();
    const second = await createTestApp();
    const page = await second.get('/graphql', { key: null, headers: { accept: 'text/html' } });
    const script = /<script src="(\/assets\/graphiql\.[\w-]{16}\.js)"/.exec(await page.text())![1]!;
    const answer = await first.get(script, { key: null, headers: { 'accept-encoding': 'br' } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-encoding')).toBe('br');
    await first.close();
    await second.close();
  });

  it('is a small page whose bundle is a cached, compressed asset', async () => {
    t = await createTestApp();
    const page = await t.get('/graphql', { key: null, headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    const html = await page.text();
    // the bundle and the icon are assets: the page is markup only
    expect(Buffer.byteLength(html)).toBeLessThan(4 * 1024);
    expect(html).not.toContain('data:');
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.map((a) => a.replace(/\.[A-Za-z0-9_-]{16}\./, '.<hash>.'))).toEqual([
      '/assets/favicon.<hash>.svg',
      '/assets/graphiql.<hash>.css',
      '/assets/graphiql.<hash>.js',
    ]);
    const icon = await t.get(assets[0]!, { key: null });
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(icon.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const script = await t.get(assets[2]!, { key: null, headers: { 'accept-encoding': 'br' } });
    expect(script.status).toBe(200);
    expect(script.headers.get('content-encoding')).toBe('br');
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Number((await script.arrayBuffer()).byteLength)).toBeLessThan(3 * 1024 * 1024);
  });
});
