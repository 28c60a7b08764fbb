/**
 * The report page in a real browser (chromium, loopback only: ./chromium.ts) against the report lab
 * (test/lab/report-lab.ts) and the DNSSEC chain lab: every section drawn with the API's values, markup in
 * upstream answers shown as text with no script run, the broken link of a bogus zone marked in the chain's
 * picture, sections shown while the slowest check still runs, the print layout, and the key rule
 * (web.publicReports). With REPORT_SCREENSHOTS=<dir>, the page is also saved there as PNG, light and print
 * (the pictures of docs/report.md).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_KEY, type TestApp } from '../helpers/app.js';
import { DNSSEC_CHAIN_ZONES, startDnssecChainLab, type DnssecChainLab } from '../lab/dnssec-chain-lab.js';
import { HOSTILE, startReportLab, type ReportLab } from '../lab/report-lab.js';
import { missingDnssecPrograms } from '../lab/unbound.js';
import { CHROMIUM, hasChromium, launchLoopbackChromium, loopbackContext, serveOnLoopback } from './chromium.js';

type Served = Awaited<ReturnType<typeof serveOnLoopback>>;

const SCREENSHOTS = process.env.REPORT_SCREENSHOTS;
const missingUnbound = missingDnssecPrograms();

if (!hasChromium) console.warn(`report page browser tests skipped: ${CHROMIUM} is missing`);

describe.skipIf(!hasChromium)('the report page in chromium', { timeout: 90_000 }, () => {
  let browser: Browser;
  let lab: ReportLab;
  let hostileLab: ReportLab;
  let plain: { t: TestApp; served: Served };
  let hostile: { t: TestApp; served: Served };

  async function serve(l: ReportLab, config: Record<string, any> = {}) {
    const t = await createTestApp({ ...l.config, ...config }, l.overrides);
    return { t, served: await serveOnLoopback(t.app) };
  }

  beforeAll(async () => {
    [lab, hostileLab] = await Promise.all([startReportLab(), startReportLab({ hostile: true })]);
    plain = await serve(lab);
    // this one lets reports run without a key
    hostile = await serve(hostileLab, { web: { publicReports: true } });
    browser = await launchLoopbackChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    for (const s of [plain, hostile]) {
      await s?.served.close();
      await s?.t.close();
    }
    await Promise.all([lab?.close(), hostileLab?.close()]);
  });

  /** A page of `origin` that records console errors, page errors and requests leaving the origin. */
  async function open(origin: string) {
    const { context, elsewhere } = await loopbackContext(browser, origin);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    return { context, page, problems, elsewhere };
  }

  /** Types the domain and the key into the form and runs the report; resolves when every part has come. */
  async function runFromForm(page: Page, origin: string, domain: string, key: string | null) {
    await page.goto(`${origin}/report`);
    await page.getByLabel('Domain').fill(domain);
    if (key) await page.getByLabel('API key').fill(key);
    await Promise.all([
      page.waitForURL(/\/report\?domain=/),
      page.getByRole('button', { name: 'Run the report' }).click(),
    ]);
    await page.waitForFunction(() => document.body.dataset.report !== undefined, undefined, { timeout: 60_000 });
  }

  /** The text a person reads there, scrolled to as a person would: a section out of view is not rendered (report.css). */
  const text = async (page: Page, selector: string) => {
    const element = page.locator(selector).first();
    await element.scrollIntoViewIfNeeded();
    // drawn in the frame after the scroll
    await page.evaluate(() => new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn))));
    return element.innerText();
  };

  it('draws every section of a lab domain with the values the API gives', async () => {
    const { context, page, problems, elsewhere } = await open(plain.served.origin);
    await runFromForm(page, plain.served.origin, lab.domain, TEST_KEY);
    expect(await page.evaluate(() => document.body.dataset.report)).toBe('done');
    // the key stays in the tab, never in the address
    expect(page.url()).toBe(`${plain.served.origin}/report?domain=${lab.domain}&view=all`);
    expect(await page.evaluate(() => sessionStorage.getItem('netdiag-api-key'))).toBe(TEST_KEY);

    for (const id of ['tls', 'observatory', 'caa', 'security-txt', 'website', 'dnssec', 'mail', 'registration']) {
      expect(await page.locator(`section#${id}`).getAttribute('data-state'), id).toBe('done');
      expect(await page.locator(`section#${id} details.raw`).count(), id).toBeGreaterThan(0);
    }
    const api = async (path: string) => ((await (await plain.t.get(path)).json()) as { data: any }).data;
    const site = `https://${lab.domain}:${lab.https}/`;
    const [tls, http, dnssec, mail, whois, website] = await Promise.all([
      api(`/api/v1/tls-rating?domain=${encodeURIComponent(site)}`),
      api(`/api/v1/http-rating?url=${encodeURIComponent(site)}`),
      api(`/api/v1/dnssec-chain?domain=${lab.domain}`),
      api(`/api/v1/mailhealth-check?domain=${lab.domain}`),
      api(`/api/v1/whois?domain=${lab.domain}`),
      api(`/api/v1/website-health-check?target=${lab.domain}`),
    ]);
    const verdict = (section: string) => text(page, `.verdict[data-section="${section}"] .verdict-value`);
    expect(await verdict('tls')).toBe(tls.grade.letter);
    expect(await text(page, '#tls .grade')).toBe(tls.grade.letter);
    expect(await text(page, '#tls .card-facts')).toContain(`Score ${tls.grade.score}`);
    expect(await verdict('observatory')).toBe(http.grade);
    expect(await text(page, '#observatory .card-facts')).toContain(`Score ${http.score}`);
    expect(await page.locator('#observatory tbody tr').count()).toBe(http.tests.length);
    expect(await verdict('dnssec')).toBe(dnssec.status);
    expect(await verdict('mail')).toBe(mail.verdict.status);
    expect(await text(page, '#mail .lead')).toContain(mail.verdict.headline);
    expect(await verdict('website')).toBe(website.verdict.status);
    // the website's CAA and security.txt, each in a section of its own
    const part = (id: string) => website.checks.find((c: { id: string }) => c.id === id);
    expect(await verdict('caa')).toBe(part('caa').status);
    expect(await text(page, '#security-txt .lead')).toContain(part('security-txt').summary);
    expect(await verdict('registration')).toBe(whois.expiryDate.slice(0, 10));
    expect(await text(page, '#registration .facts')).toContain(whois.registrar);
    // the mail route: the MX host with its STARTTLS state
    expect(await text(page, '#mail .route')).toContain('mx.lab.test');
    expect(await text(page, '#mail .route')).toMatch(/STARTTLS\s+ok/);
    expect(problems).toEqual([]);
    expect(elsewhere).toEqual([]);
    if (SCREENSHOTS) {
      mkdirSync(SCREENSHOTS, { recursive: true });
      // the top of the page: the form, the verdicts and the TLS card (the whole page is several screens)
      await page.setViewportSize({ width: 1000, height: 1150 });
      await page.screenshot({ path: join(SCREENSHOTS, 'report-light.png') });
      await page.emulateMedia({ media: 'print' });
      await page.screenshot({ path: join(SCREENSHOTS, 'report-print.png') });
    }
    await context.close();
  });

  it('shows markup from a TXT record, the status line, a header and WHOIS as text; no script runs', async () => {
    const { context, page, problems, elsewhere } = await open(hostile.served.origin);
    // no key: this instance has web.publicReports on
    await runFromForm(page, hostile.served.origin, hostileLab.domain, null);
    expect(await page.evaluate(() => document.body.dataset.report)).toBe('done');
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    // the page itself has no image: any <img> would have come from an answer
    expect(await page.locator('img').count()).toBe(0);
    // the registrar's name, exactly as the WHOIS server wrote it
    const registrar = await page.locator('#registration .facts dd').nth(1).textContent();
    expect(registrar).toBe(HOSTILE.registrar);
    // the TXT record and the headers, as characters in the page (the raw answers hold them, JSON-escaped)
    const all = await page.locator('main').textContent();
    expect(all).toContain("<script>window.__pwned='txt-script'</script>");
    // the response's status line (its header), in the HTTP check's summary; the Location header arrives
    // percent-encoded by the URL it becomes
    expect(all).toContain(`The page answers 200 ${HOSTILE.reason}`);
    expect(problems).toEqual([]);
    expect(elsewhere).toEqual([]);
    await context.close();
  });

  it('shows the first sections while the slowest check is still running', async () => {
    const { context, page } = await open(plain.served.origin);
    await page.goto(`${plain.served.origin}/report`);
    await page.getByLabel('API key').fill(TEST_KEY);
    lab.hold('site');
    try {
      await page.goto(`${plain.served.origin}/report?domain=${lab.domain}&view=all`);
      // the registration (WHOIS) arrives; the website check waits on the held site
      await page.locator('section#registration[data-state="done"]').waitFor({ timeout: 30_000 });
      expect(lab.held()).toBeGreaterThan(0);
      expect(await page.locator('section#website').getAttribute('data-state')).toBe('running');
      expect(await page.locator('section#website').getAttribute('aria-busy')).toBe('true');
      expect(await text(page, '.verdict[data-section="registration"] .verdict-value')).toMatch(/^\d{4}-\d\d-\d\d$/);
    } finally {
      lab.release();
    }
    await page.locator('section#website[data-state="done"]').waitFor({ timeout: 60_000 });
    const arrived = async (id: string) => Number(await page.locator(`section#${id}`).getAttribute('data-arrived-ms'));
    expect(await arrived('registration')).toBeLessThan(await arrived('website'));
    await context.close();
  });

  it('lays the report out for print, and prints it', async () => {
    const { context, page } = await open(plain.served.origin);
    await page.goto(`${plain.served.origin}/report`);
    await page.getByLabel('API key').fill(TEST_KEY);
    await page.goto(`${plain.served.origin}/report?domain=${lab.domain}&view=mail`);
    await page.waitForFunction(() => document.body.dataset.report === 'done', undefined, { timeout: 60_000 });
    await page.emulateMedia({ media: 'print' });
    const shown = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((e) => getComputedStyle(e).display !== 'none');
    expect(await shown('form.ask')).toBe(false);
    expect(await shown('details.raw')).toBe(false);
    expect(await shown('section#mail')).toBe(true);
    expect(await shown('.verdict-list')).toBe(true);
    const pdf = await page.pdf({ format: 'A4' });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.length).toBeGreaterThan(10_000);
    await context.close();
  });

  it('says a key is needed, and sends nothing, where reports need one', async () => {
    const { context, page, elsewhere } = await open(plain.served.origin);
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST') posts.push(r.url());
    });
    await page.goto(`${plain.served.origin}/report?domain=${lab.domain}`);
    await page.waitForFunction(() => document.body.dataset.report === 'needs-key');
    expect(await text(page, '#report-status')).toContain('needs an API key');
    expect(await page.locator('section#tls').getAttribute('data-state')).toBe('refused');
    expect(posts).toEqual([]);
    expect(elsewhere).toEqual([]);
    await context.close();
  });

  describe.skipIf(missingUnbound.length > 0)('against the DNSSEC chain lab', () => {
    let chainLab: DnssecChainLab;
    let chain: { t: TestApp; served: Served };

    beforeAll(async () => {
      chainLab = await startDnssecChainLab();
      const t = await createTestApp({
        dns: { system: [`${chainLab.resolver.host}:${chainLab.resolver.port}`], timeoutMs: 3000 },
        dnssec: { trustAnchors: [chainLab.trustAnchor] },
      });
      chain = { t, served: await serveOnLoopback(t.app) };
    }, 60_000);
    afterAll(async () => {
      await chain?.served.close();
      await chain?.t.close();
      await chainLab?.close();
    });

    it('marks the broken link of a bogus zone in the picture of the chain', async () => {
      const zone = DNSSEC_CHAIN_ZONES.digestMismatch;
      const { context, page, problems } = await open(chain.served.origin);
      await page.goto(`${chain.served.origin}/report`);
      await page.getByLabel('API key').fill(TEST_KEY);
      await page.goto(`${chain.served.origin}/report?domain=${zone}&view=mail`);
      await page.locator('section#dnssec[data-state="done"]').waitFor({ timeout: 60_000 });
      const picture = page.locator('#dnssec svg.chain');
      expect(await picture.getAttribute('role')).toBe('img');
      // one box per zone from the root, the broken one marked, the DS → DNSKEY line drawn broken
      expect(
        await picture.locator('g.zone').evaluateAll((zones) => zones.map((z) => z.getAttribute('data-zone'))),
      ).toEqual(['.', 'lab', zone]);
      expect(await picture.locator('g.zone.broken').getAttribute('data-zone')).toBe(zone);
      expect(await picture.locator('.break-mark text').textContent()).toBe('✗ broken: DS_DIGEST_MISMATCH');
      expect(await picture.locator('line.link.broken').count()).toBeGreaterThan(0);
      expect(await text(page, '.verdict[data-section="dnssec"]')).toContain(`broken at ${zone}: DS_DIGEST_MISMATCH`);
      // the finding says why it matters and how to fix it
      expect(await text(page, '#dnssec .findings')).toContain('How to fix it');
      expect(problems).toEqual([]);
      if (SCREENSHOTS) await picture.screenshot({ path: join(SCREENSHOTS, 'report-dnssec-chain.png') });
      await context.close();
    });
  });
});
