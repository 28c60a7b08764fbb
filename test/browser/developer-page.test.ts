/**
 * The developer page and GraphiQL in a real browser: Debian's chromium driven by playwright-core, against
 * the app on a real node:http server on 127.0.0.1. The browser can reach nothing but loopback: its host
 * resolver maps every name but 127.0.0.1 to "not found", every non-loopback request would go to a dead
 * loopback proxy, background services are off, and each context aborts (and records) any request that
 * leaves the app's origin.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContextOptions } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { buildConfig } from '../../src/config.js';
import { NO_LOOP_DELAY_SENSOR } from '../../src/platform/admission.js';
import { createServices } from '../../src/create-services.js';
import { silentLogger } from '../../src/log.js';
import { restRoutes } from '../../src/rest/routes.js';
import type { Services } from '../../src/services.js';
import {
  CHROMIUM,
  hasChromium,
  launchLoopbackChromium,
  loopbackContext as loopbackOnly,
  serveOnLoopback,
} from './chromium.js';

/** The operations of the job routes in the OpenAPI document (src/rest/jobs/jobs-openapi.ts). */
const JOB_OPERATIONS = 6;
/** the monitor routes and the badge (src/rest/monitors/monitors-openapi.ts) */
const MONITOR_OPERATIONS = 9;
const PUBLIC = '93.184.216.34'; // the address a (pretend) trusted proxy forwards; nothing connects to it

if (!hasChromium)
  console.warn(`browser tests skipped: ${CHROMIUM} is missing (Debian package "chromium"; .ci/run installs it)`);

describe.skipIf(!hasChromium)(
  `developer page in chromium${hasChromium ? '' : ' (skipped: /usr/bin/chromium is missing)'}`,
  () => {
    let services: Services;
    let served: Awaited<ReturnType<typeof serveOnLoopback>>;
    let browser: Browser;
    let origin: string;

    beforeAll(async () => {
      const config = buildConfig({
        server: { dataDir: mkdtempSync(join(tmpdir(), 'netdiag-browser-')), trustedProxies: ['127.0.0.1/32'] },
        // Nothing here asks DNS; if something did, it would ask a dead loopback port, never the host's resolver.
        dns: {
          system: ['127.0.0.1:9'],
          publicResolvers: [{ name: 'Lab', ip: '192.0.2.53', countryCode: 'ZZ', address: '127.0.0.1:9' }],
        },
      });
      // chromium starting beside a busy test run delays this process's event loop; shedding on it would
      // fail the page loads for a reason that is not the page's (as in test/helpers/app.ts)
      services = await createServices(config, silentLogger, { loopDelaySensor: NO_LOOP_DELAY_SENSOR });
      served = await serveOnLoopback(createApp(services));
      origin = served.origin;
      browser = await launchLoopbackChromium();
    });

    afterAll(async () => {
      await browser?.close();
      await served?.close();
      await services?.close();
    });

    /** A fresh profile whose requests may only go to the app (data: and blob: URLs stay inside the page). */
    const loopbackContext = (options: BrowserContextOptions = {}) => loopbackOnly(browser, origin, options);

    it('records and aborts a request that would leave the app (the guard the other tests rely on)', async () => {
      const { context, elsewhere } = await loopbackContext();
      const page = await context.newPage();
      await page.goto(`${origin}/healthz`);
      // A reserved name (RFC 6761 .invalid): even unguarded it resolves nowhere.
      const failed = page.waitForEvent('requestfailed');
      await page.evaluate(() => {
        const img = document.createElement('img');
        img.src = 'http://netdiag-guard.invalid/probe.png';
        document.body.append(img);
      });
      expect((await failed).url()).toBe('http://netdiag-guard.invalid/probe.png');
      expect(elsewhere).toEqual(['http://netdiag-guard.invalid/probe.png']);
      await context.close();
    });

    it('loads the page, submits the form, reads the key, and calls the API with it', async () => {
      const { context, elsewhere } = await loopbackContext();
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text()); // e.g. a CSP refusal of the style sheet
      });
      page.on('pageerror', (e) => problems.push(e.message));

      const response = await page.goto(`${origin}/`);
      expect(response?.status()).toBe(200);
      await expect(page.title()).resolves.toBe('netdiag — network diagnostics API');
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('netdiag');
      expect(await page.getByRole('main').count()).toBe(1);
      expect(await page.getByRole('navigation', { name: 'On this page' }).count()).toBe(1);
      // one header row plus one row per REST route
      expect(await page.getByRole('table').getByRole('row').count()).toBe(restRoutes.size + 1);
      expect(await page.getByRole('rowheader', { name: 'GET /api/v1/my-ip' }).count()).toBe(1);
      expect(await page.getByRole('link', { name: 'GraphiQL' }).first().getAttribute('href')).toBe('/graphql');
      // the style sheet was applied under the page's CSP (its hash matched)
      expect(await page.evaluate(() => getComputedStyle(document.body).color)).toBe('rgb(27, 27, 27)');

      await Promise.all([
        page.waitForURL(`${origin}/keys`),
        page.getByRole('button', { name: 'Get a free API key' }).click(),
      ]);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Your API key');
      const key = (await page.locator('#api-key').textContent())?.trim() ?? '';
      expect(key).toMatch(/^nd_[\w-]{46}$/);
      expect(await page.locator('main').textContent()).toContain('300 credits per rolling 24 hours');

      // The key in a header, from a browser fetch. Not from this page: its CSP (default-src 'none') allows
      // no fetch at all. A same-origin document without that policy, /healthz, serves as the client.
      await page.goto(`${origin}/healthz`);
      const api = await page.evaluate(
        async ({ key, forwarded }) => {
          const res = await fetch('/api/v1/my-ip', { headers: { 'x-api-key': key, 'x-forwarded-for': forwarded } });
          return { status: res.status, body: await res.json(), remaining: res.headers.get('ratelimit-remaining') };
        },
        { key, forwarded: PUBLIC },
      );
      expect(api).toEqual({
        status: 200,
        body: { ok: true, data: { ip: PUBLIC, version: 'IPv4' }, meta: { tool: 'my-ip', version: 'v1' } },
        remaining: '299',
      });

      expect(problems).toEqual([]);
      expect(elsewhere).toEqual([]);
      await context.close();
    });

    it('works with JavaScript turned off, the key then used as a query parameter', async () => {
      const { context, elsewhere } = await loopbackContext({
        javaScriptEnabled: false,
        extraHTTPHeaders: { 'x-forwarded-for': PUBLIC },
      });
      const page = await context.newPage();
      await page.goto(`${origin}/`);
      await Promise.all([
        page.waitForURL(`${origin}/keys`),
        page.getByRole('button', { name: 'Get a free API key' }).click(),
      ]);
      const key = (await page.locator('#api-key').textContent())?.trim() ?? '';
      expect(key).toMatch(/^nd_/);
      const api = await page.goto(`${origin}/api/v1/my-ip?api_key=${encodeURIComponent(key)}`);
      expect(api?.status()).toBe(200);
      expect(await api?.json()).toEqual({
        ok: true,
        data: { ip: PUBLIC, version: 'IPv4' },
        meta: { tool: 'my-ip', version: 'v1' },
      });
      expect(elsewhere).toEqual([]);
      await context.close();
    });

    it('opens GraphiQL with the example operation that composes several checks', async () => {
      const { context, elsewhere } = await loopbackContext();
      const page = await context.newPage();
      const introspection = page.waitForResponse(
        (r) => r.url() === `${origin}/graphql` && r.request().method() === 'POST',
      );
      const response = await page.goto(`${origin}/graphql`);
      expect(response?.status()).toBe(200);
      await page.locator('.graphiql-container').first().waitFor();
      // the editor (Monaco) renders the default operation's lines
      const editor = page.locator('.graphiql-query-editor .view-lines');
      const editorText = async () => (await editor.innerText()).replace(/\u00a0/g, ' '); // Monaco renders spaces as NBSP
      await expect.poll(editorText, { timeout: 10_000 }).toContain('query Overview');
      const text = await editorText();
      for (const check of ['ipInfo(target: "8.8.8.8")', 'asnLookup(target:', 'dnsLookup(domain: $domain)']) {
        expect(text).toContain(check);
      }
      // it loaded the schema from this service (introspection needs no key, and GraphiQL's own
      // introspection query fits the operation limits: graphql.maxDepth, one __schema root)
      expect((await introspection).status()).toBe(200);
      expect(JSON.stringify(await (await introspection).json())).toContain('"queryType"');
      expect(elsewhere).toEqual([]);
      await context.close();
    });

    it('renders the API reference at /docs from this service alone, every REST endpoint listed', async () => {
      const { context, elsewhere } = await loopbackContext();
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      const response = await page.goto(`${origin}/docs`);
      expect(response?.status()).toBe(200);
      // Swagger UI renders one block per operation once it has read /api/v1/openapi.json: every GET tool,
      // and the job routes' six (submit, list, read, cancel, results, events: docs/jobs.md)
      const operations = page.locator('.opblock-summary-path');
      await expect
        .poll(() => operations.count(), { timeout: 15_000 })
        .toBe(restRoutes.size + JOB_OPERATIONS + MONITOR_OPERATIONS);
      const paths = await operations.allInnerTexts();
      expect(paths.map((p) => p.replace(/\u200b/g, ''))).toContain('/api/v1/ip-info');
      expect(errors).toEqual([]);
      expect(elsewhere).toEqual([]);
      await context.close();
    });
  },
);
