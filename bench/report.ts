/**
 * The report page's targets (issue 33; docs/report.md "Performance"), measured in Chromium against the report
 * lab (in a process of its own, as remote servers are) with the latency of servers across the internet: the first section is on screen within a small
 * margin (issue 33's) of the fastest of its checks run alone, and the whole report within the same margin of the slowest. Every measurement
 * gets a fresh app (cold caches, as a domain nobody asked about lately), warmed by one call of the same
 * operation for another domain (the parsed operation is cached, as it is in a service that has served one
 * report). In the page, times run from the operation's request to the section on screen (a frame after it
 * was drawn; the page's own load aside, printed beside as the times from opening the address); a check alone
 * is its REST call, from Node and from a page in Chromium (the browser's own cost of a request). Beside
 * them, where the time goes: when the answer's headers and its first and last parts leave the server and
 * are read and drawn in the page. Medians of ROUNDS. Loopback only; skipped without Debian's chromium.
 */
import type { Page } from 'playwright-core';
import { partsOf } from '../src/web/report/sections.js';
import { hasChromium, launchLoopbackChromium } from '../test/browser/chromium.js';
import type { ReportLabAddresses } from '../test/lab/report-lab.js';
import { BENCH_KEY, median, reportLabProcess, serveReportLabProcess } from './report-app.js';

const ROUNDS = Number(process.env.BENCH_REPORT_ROUNDS ?? 5);
const LATENCY = { dnsMs: 20, whoisMs: 150, httpMs: 40 };
/** a domain that shares no cached answer with the lab's (another registrable domain, names the lab lacks) */
const WARM_UP = 'warm-up.invalid';

async function restCall(origin: string, tool: string, domain: string): Promise<number> {
  const param = tool === 'website-health-check' ? 'target' : 'domain';
  const t0 = performance.now();
  const res = await fetch(`${origin}/api/v1/${tool}?${param}=${domain}`, { headers: { 'x-api-key': BENCH_KEY } });
  await res.arrayBuffer();
  return performance.now() - t0;
}

/** The page's report on screen: called by the page (an init script, below) once every section and the report are. */
const SHOWN_BINDING = '__benchReportShown';
let onShown: (() => void) | null = null;

/**
 * Times from the page's navigation: the operation's request, each section on screen (a frame after it was
 * drawn), the last. Nothing is asked of the page until it says the report is on screen: playwright's
 * polling (waitForFunction) would put its own script and checks on the page's main thread while the parts
 * arrive.
 */
async function reportInPage(page: Page, origin: string, domain: string) {
  const shown = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the report of ${domain} was not on screen within 60 s`)), 60_000);
    onShown = () => {
      clearTimeout(timer);
      resolve();
    };
  });
  await page.goto(`${origin}/report?domain=${domain}&view=all`, { waitUntil: 'commit' });
  await shown;
  return page.evaluate(() => {
    const shown = [...document.querySelectorAll<HTMLElement>('section.section')].map((s) => ({
      part: s.dataset.part ?? '',
      ms: Number(s.dataset.shownMs),
      /** read from the answer, from the request */
      read: Number(s.dataset.readMs),
      /** drawn (before the frame), from the request */
      arrived: Number(s.dataset.arrivedMs),
    }));
    const first = shown.reduce((a, b) => (b.ms < a.ms ? b : a));
    const last = shown.reduce((a, b) => (b.ms > a.ms ? b : a));
    const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    const marks = (window as unknown as { __benchMarks?: [string, number, number][] }).__benchMarks ?? [];
    const request = Number(document.body.dataset.requestMs);
    const firstRead = request + Number(shown.reduce((a, b) => (b.ms < a.ms ? b : a)).read);
    return {
      /** the body parsed (DOMContentLoaded), from opening the address */
      parsed: navigation?.domContentLoadedEventStart ?? Number.NaN,
      request,
      /** the answer's headers, from the request */
      headers: (marks.find((m) => m[0] === 'headers' && m[1] >= request)?.[1] ?? Number.NaN) - request,
      /** the page's long tasks between the request and the first part read: their time in that span */
      busyBeforeFirst: marks
        .filter((m) => m[0] === 'long task')
        .reduce(
          (sum, [, start, duration]) =>
            sum + Math.max(0, Math.min(start + duration, firstRead) - Math.max(start, request)),
          0,
        ),
      first,
      last,
      whole: Math.max(...shown.map((s) => s.ms)),
    };
  });
}

/** A check alone as its REST call from a page of the app's origin: the browser's own cost of a request, the same as the report's. */
async function restCallInPage(page: Page, tool: string, domain: string): Promise<number> {
  const param = tool === 'website-health-check' ? 'target' : 'domain';
  return page.evaluate(
    async ({ url, key }) => {
      const t0 = performance.now();
      const res = await fetch(url, { headers: { 'x-api-key': key } });
      await res.arrayBuffer();
      return performance.now() - t0;
    },
    { url: `/api/v1/${tool}?${param}=${domain}`, key: BENCH_KEY },
  );
}

async function measure(lab: ReportLabAddresses, browser: Awaited<ReturnType<typeof launchLoopbackChromium>>) {
  const alone = new Map<string, number>();
  const aloneInPage = new Map<string, number>();
  for (const part of partsOf('all')) {
    for (const inPage of [false, true]) {
      const app = await serveReportLabProcess(lab);
      const context = inPage ? await browser.newContext() : null;
      try {
        if (context) {
          const page = await context.newPage();
          await page.goto(`${app.origin}/report`);
          await restCallInPage(page, part.tool, WARM_UP);
          aloneInPage.set(part.id, await restCallInPage(page, part.tool, lab.domain));
        } else {
          await restCall(app.origin, part.tool, WARM_UP);
          alone.set(part.id, await restCall(app.origin, part.tool, lab.domain));
        }
      } finally {
        await context?.close();
        await app.close();
      }
    }
  }
  const app = await serveReportLabProcess(lab);
  // A plain context: the tests' (loopbackContext) routes every request through the driver to record any that
  // leaves the origin, a round trip per request that would be counted here. The bench runs in a namespace
  // with loopback only, and the browser's own flags keep every name and address on loopback.
  const context = await browser.newContext();
  // what held the page's main thread (long tasks, as the browser reports them), and when the answer's headers came
  await context.addInitScript(() => {
    const marks: [string, number, number][] = [];
    (window as unknown as { __benchMarks: typeof marks }).__benchMarks = marks;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) marks.push(['long task', e.startTime, e.duration]);
    }).observe({ type: 'longtask', buffered: true });
    const fetch = window.fetch;
    window.fetch = (...args) => {
      const answer = fetch(...args);
      void answer.then(() => marks.push(['headers', performance.now(), 0]));
      return answer;
    };
  });
  await context.exposeBinding(SHOWN_BINDING, () => onShown?.());
  // (no named functions inside: the script is sent as its text, without tsx's helpers)
  await context.addInitScript((binding) => {
    document.addEventListener('DOMContentLoaded', () => {
      const observer = new MutationObserver(() => {
        const body = document.body.dataset;
        if (body.report !== 'done' || body.shownMs === undefined) return;
        const sections = [...document.querySelectorAll<HTMLElement>('section.section')];
        if (!sections.every((s) => s.dataset.shownMs !== undefined)) return;
        observer.disconnect();
        (window as unknown as Record<string, () => void>)[binding]!();
      });
      observer.observe(document.body, { attributes: true, subtree: true, attributeFilter: ['data-shown-ms'] });
    });
  }, SHOWN_BINDING);
  try {
    const page = await context.newPage();
    await page.goto(`${app.origin}/report`);
    await page.evaluate((key) => sessionStorage.setItem('netdiag-api-key', key), BENCH_KEY);
    await reportInPage(page, app.origin, WARM_UP);
    const report = await reportInPage(page, app.origin, lab.domain);
    const parts = await app.parts();
    const leftAt = (part: string) => (parts.left.get(part) ?? Number.NaN) - parts.received;
    const server = {
      headers: parts.answered - parts.received,
      first: leftAt(report.first.part),
      last: Math.max(...[...parts.left.keys()].map(leftAt)),
    };
    return { alone, aloneInPage, report, server };
  } finally {
    await context.close();
    await app.close();
  }
}

export async function benchReport(): Promise<void> {
  console.log('\n## report page in Chromium: first section vs the fastest check, whole report vs the slowest');
  if (!hasChromium) {
    console.log('skipped: /usr/bin/chromium is missing');
    return;
  }
  const { lab, stop } = await reportLabProcess(LATENCY);
  const browser = await launchLoopbackChromium();
  try {
    const rounds: Awaited<ReturnType<typeof measure>>[] = [];
    for (let i = 0; i < ROUNDS; i++) rounds.push(await measure(lab, browser));
    const aloneMedian = new Map(
      [...rounds[0]!.alone.keys()].map((id) => [id, median(rounds.map((r) => r.alone.get(id)!))]),
    );
    const fastest = Math.min(...aloneMedian.values());
    const slowest = Math.max(...aloneMedian.values());
    const inPageMedian = new Map(
      [...rounds[0]!.aloneInPage.keys()].map((id) => [id, median(rounds.map((r) => r.aloneInPage.get(id)!))]),
    );
    const fastestInPage = Math.min(...inPageMedian.values());
    const slowestInPage = Math.max(...inPageMedian.values());
    const fromRequest = (r: (typeof rounds)[number], ms: number) => ms - r.report.request;
    const first = median(rounds.map((r) => fromRequest(r, r.report.first.ms)));
    const whole = median(rounds.map((r) => fromRequest(r, r.report.whole)));
    const firstOpened = median(rounds.map((r) => r.report.first.ms));
    const wholeOpened = median(rounds.map((r) => r.report.whole));
    const request = median(rounds.map((r) => r.report.request));
    const parsed = median(rounds.map((r) => r.report.parsed));
    const serverFirst = median(rounds.map((r) => r.server.first));
    const serverHeaders = median(rounds.map((r) => r.server.headers));
    const serverLast = median(rounds.map((r) => r.server.last));
    const drawnFirst = median(rounds.map((r) => r.report.first.arrived));
    const readFirst = median(rounds.map((r) => r.report.first.read));
    const headers = median(rounds.map((r) => r.report.headers));
    const busyBeforeFirst = median(rounds.map((r) => r.report.busyBeforeFirst));
    const readLast = median(rounds.map((r) => r.report.last.read));
    const drawnLast = median(rounds.map((r) => r.report.last.arrived));
    const firstParts = [...new Set(rounds.map((r) => r.report.first.part))].join(', ');
    console.log(
      `lab latency: DNS ${LATENCY.dnsMs} ms, WHOIS ${LATENCY.whoisMs} ms, each HTTP answer ${LATENCY.httpMs} ms; cold caches`,
    );
    console.log(
      `each check alone (REST, median of ${ROUNDS}): ${[...aloneMedian].map(([id, ms]) => `${id} ${ms.toFixed(0)} ms`).join(', ')}`,
    );
    console.log(
      `each check alone, its REST call from a page in Chromium (median of ${ROUNDS}): ${[...inPageMedian].map(([id, ms]) => `${id} ${ms.toFixed(0)} ms`).join(', ')}`,
    );
    console.log(
      `report on screen, from the operation's request (median of ${ROUNDS}): first section ${first.toFixed(0)} ms (${firstParts}), whole ${whole.toFixed(0)} ms`,
    );
    console.log(
      `where the time goes (medians, from the request): the first part leaves the server at ${serverFirst.toFixed(0)} ms, is read in the page at ${readFirst.toFixed(0)} ms (the answer's headers leave the server at ${serverHeaders.toFixed(0)} ms, reach the page at ${headers.toFixed(0)} ms; long tasks held the page ${busyBeforeFirst.toFixed(0)} ms before), drawn at ${drawnFirst.toFixed(0)} ms; the last part ${serverLast.toFixed(0)}, ${readLast.toFixed(0)}, ${drawnLast.toFixed(0)} ms (on screen a frame later)`,
    );
    console.log(
      `from opening the address: request sent at ${request.toFixed(0)} ms, body parsed at ${parsed.toFixed(0)} ms, first section ${firstOpened.toFixed(0)} ms, whole ${wholeOpened.toFixed(0)} ms`,
    );
    console.log(
      `first section / fastest check: ${(first / fastest).toFixed(2)}× (target ≤ 1.2×; from opening the address ${(firstOpened / fastest).toFixed(2)}×)`,
    );
    console.log(
      `whole report / slowest check: ${(whole / slowest).toFixed(2)}× (target ≤ 1.2×; from opening the address ${(wholeOpened / slowest).toFixed(2)}×)`,
    );
    console.log(
      `against the checks alone from a page in Chromium: first section ${(first / fastestInPage).toFixed(2)}×, whole report ${(whole / slowestInPage).toFixed(2)}×`,
    );
  } finally {
    await browser.close();
    stop();
  }
}

if (process.argv[1]?.endsWith('report.ts')) await benchReport();
