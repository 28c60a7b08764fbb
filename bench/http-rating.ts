/**
 * http-rating against loopback labs (an https lab answering the A+ header set with a document of some
 * size and scripts, an http lab redirecting to it), next to the three fetches it needs made alone through
 * the same loaders, concurrently: the https session with its document, the http chain and the CORS
 * preflight. The ratio is what the Observatory's tests, the document's parsing and the assembly add to the
 * critical path of the fetches (target: at most 1.5×). Loopback only.
 */
import { CORS_PREFLIGHT_ORIGIN, runHttpRating, sessionUrls } from '../src/checks/tls-http/http-rating/run.js';
import { buildConfig } from '../src/config.js';
import { createCheckContext } from '../src/loaders/context.js';
import { createServices } from '../src/create-services.js';
import { silentLogger } from '../src/log.js';
import { rr, startDnsLab } from '../test/lab/dns-server.js';
import { labCertificates, startHttpLab } from '../test/lab/http-server.js';

const ROUNDS = 30;
const NAME = 'rated.lab.test';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** A page of some weight: scripts (own and foreign, with SRI), metas, and paragraphs. */
function documentOfSomeSize(): string {
  const scripts = Array.from(
    { length: 20 },
    (_, i) =>
      `<script src="${i % 2 ? `/js/${i}.js` : `https://cdn.jsdelivr.net/npm/x@1/${i}.js`}" integrity="sha384-${'a'.repeat(64)}" crossorigin></script>`,
  ).join('\n');
  const paragraphs = '<p>Some text of the page, with <a href="/x">a link</a> and <em>emphasis</em>.</p>\n'.repeat(800);
  return `<!doctype html><html><head><meta charset="utf-8"><title>rated</title>
<meta name="referrer" content="no-referrer">
<meta http-equiv="Content-Security-Policy" content="img-src 'self'">
${scripts}</head><body>${paragraphs}</body></html>`;
}

export async function benchHttpRating(): Promise<void> {
  const { caCert, valid } = await labCertificates();
  const headers = {
    'content-type': 'text/html; charset=utf-8',
    'strict-transport-security': 'max-age=63072000; includeSubDomains; preload',
    'content-security-policy': "default-src 'none'; script-src 'self' https://cdn.jsdelivr.net; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'cross-origin-resource-policy': 'same-origin',
    'set-cookie': ['sessionid=1; Secure; HttpOnly; SameSite=Lax', 'prefs=dark; Secure; SameSite=Strict'],
  };
  const https = await startHttpLab({ tls: valid, pages: { '/': { headers, body: documentOfSomeSize() } } });
  const http = await startHttpLab({
    pages: { '/': { status: 301, headers: { location: `https://${NAME}:${https.port}/` } } },
  });
  const dns = await startDnsLab({ authoritative: false, records: [rr.a(NAME, '127.0.0.1')] });
  const services = await createServices(
    buildConfig({
      server: { dataDir: '/tmp/netdiag-bench' },
      dns: { system: [`127.0.0.1:${dns.port}`] },
      targets: { allow: ['127.0.0.0/8'] },
    }),
    silentLogger,
    { connections: { tlsCa: caCert }, webPorts: { http: http.port, https: https.port } },
  );
  const target = { hostname: NAME, url: null };
  try {
    // a fresh context per run: per-request loaders must not answer from the previous run
    const context = () => createCheckContext(services, AbortSignal.timeout(20_000));
    const rating = async (): Promise<number> => {
      const t0 = performance.now();
      const data = await runHttpRating(context(), target);
      const took = performance.now() - t0;
      if (data.grade !== 'A+') throw new Error(`the lab should grade A+, not ${data.grade}: ${JSON.stringify(data)}`);
      return took;
    };
    const fetchesAlone = async (): Promise<number> => {
      const ctx = context();
      const urls = sessionUrls(target, ctx.ports);
      const t0 = performance.now();
      await Promise.all([
        ctx.fetch(urls.https, { readBody: 'document' }),
        ctx.fetch(urls.http, { readBody: false }),
        ctx.preflight(urls.https, CORS_PREFLIGHT_ORIGIN),
      ]);
      return performance.now() - t0;
    };

    await rating(); // warm-up: JIT, DNS cache, the lab's certificates
    await fetchesAlone();
    const ratingTimes: number[] = [];
    const fetchTimes: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      // alternate which goes first, so that neither always runs after the other's garbage
      if (i % 2 === 0) {
        ratingTimes.push(await rating());
        fetchTimes.push(await fetchesAlone());
      } else {
        fetchTimes.push(await fetchesAlone());
        ratingTimes.push(await rating());
      }
    }
    const r = median(ratingTimes);
    const f = median(fetchTimes);
    console.log('\n## http-rating vs the fetches it needs (loopback https and http labs, 20 scripts, ~60 KB page)');
    console.log(
      `runHttpRating (three fetches, the ten tests, the grade): median ${r.toFixed(1)} ms over ${ROUNDS} runs`,
    );
    console.log(`the three fetches alone, concurrently: median ${f.toFixed(1)} ms over ${ROUNDS} runs`);
    console.log(`ratio: the rating takes ${(r / f).toFixed(2)}× the time of its fetches (target ≤ 1.5×)`);
  } finally {
    await services.close();
    await dns.close();
    await https.close();
    await http.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchHttpRating();
