/**
 * mailhealth-check against a loopback DNS lab that adds 50 ms to every answer (issue 6): the wall
 * time of the whole check next to its critical path — the longest chain of DEPENDENT questions it
 * needs — as a ratio (aim: ≤ 1.2). Every other question runs beside that chain.
 *
 * The critical path is derived from the lab zone below with the dependency rules of src/checks/composite/mailhealth-check/run.ts:
 * - mx: MX → A/AAAA of the exchanges (2);
 * - blacklist: MX → A of the exchanges → each list's A → TXT of a listing (4 with a listing, else 3);
 * - spf: TXT of the domain → TXT of each include/redirect target, level by level, and one more
 *   question (two for an "a" whose A is empty: then AAAA) for an a/mx/exists term at any level;
 * - dmarc: _dmarc.<domain> → _dmarc.<organisational domain> when the first has none (2);
 * - dkim: the configured selectors (1); the selectors of providers seen in MX or the domain's own
 *   SPF record need those answers first (2);
 * - starttls: MX → A/AAAA of the exchanges (2), then one SMTP session per exchange (loopback SMTP
 *   servers that answer at once: the session is local work, not a round trip of the lab);
 * - dane: MX → TLSA of each exchange (2), then the same sessions;
 * - mta-sts: its TXT and the MX (1) → A/AAAA of mta-sts.<domain> (2), then the policy over HTTPS
 *   (a loopback server that answers at once);
 * - bimi: its TXT (1) → A/AAAA of the logo's host (2), then the logo; DMARC as above (2);
 * - tls-rpt: its TXT (1), judged once mta-sts and dane are known (2).
 *
 * The MX hosts are loopback addresses (127.0.0.0/29, which `targets.allow` treats as public so that
 * the block lists are asked and the SMTP parts connect): nothing leaves loopback.
 */
import { setMaxListeners } from 'node:events';
import { createCheckContext } from '../src/loaders/context.js';
import { runMailHealth } from '../src/checks/composite/mailhealth-check/run.js';
import { inferProviders } from '../src/checks/dns/shared/mail-providers.js';
import { buildConfig } from '../src/config.js';
import { createServices } from '../src/create-services.js';
import { silentLogger } from '../src/log.js';
import { rr, startDnsLab, type LabZoneRecord } from '../test/lab/dns-server.js';
import { TINY_PS_LOGO } from '../test/lab/bimi-logo.js';
import { startDocumentServer } from '../test/lab/document-server.js';
import { labLeafFor, labPki } from '../test/lab/pki.js';
import { startSmtpServer, type LabSmtpServer } from '../test/lab/smtp-server.js';

const DELAY_MS = 50;
const RUNS = 9;
const DOMAIN = 'news.bench.test';
const LISTS = [
  { zone: 'bl1.bench.test', name: 'Bench List 1' },
  { zone: 'bl2.bench.test', name: 'Bench List 2' },
  { zone: 'bl3.bench.test', name: 'Bench List 3' },
];
const SELECTORS = ['default', 's1', 'k1'];

const MX_ADDRESSES = ['127.0.0.4', '127.0.0.5'];
const ZONE: LabZoneRecord[] = [
  rr.mx(DOMAIN, 10, 'aspmx.l.google.com'),
  rr.mx(DOMAIN, 20, 'mx2.bench.test'),
  rr.a('aspmx.l.google.com', '127.0.0.4'),
  rr.a('mx2.bench.test', '127.0.0.5'),
  rr.a('mx2.bench.test', '127.0.0.6'),
  rr.aaaa('mx2.bench.test', '2001:4860::5'),
  // 127.0.0.6 is listed on the first list, with an explanation
  rr.a('6.0.0.127.bl1.bench.test', '127.0.0.2'),
  rr.txt('6.0.0.127.bl1.bench.test', 'Listed for the benchmark'),
  rr.txt(`_smtp._tls.${DOMAIN}`, 'v=TLSRPTv1; rua=mailto:tls@bench.test'),
  rr.txt(`_mta-sts.${DOMAIN}`, 'v=STSv1; id=1'),
  rr.a(`mta-sts.${DOMAIN}`, '127.0.0.1'),
  rr.txt(`default._bimi.${DOMAIN}`, 'v=BIMI1; l=https://logos.bench.test/logo.svg'),
  rr.a('logos.bench.test', '127.0.0.1'),
  // SPF: siblings on every level, and a chain three deep
  rr.txt(DOMAIN, `v=spf1 mx a:out.${DOMAIN} include:_spf.google.com include:sendgrid.net -all`),
  rr.txt(DOMAIN, 'site-verification=bench'),
  rr.a(`out.${DOMAIN}`, '198.51.100.7'),
  rr.txt(
    '_spf.google.com',
    'v=spf1 include:_netblocks.google.com include:_netblocks2.google.com include:_netblocks3.google.com ~all',
  ),
  rr.txt('_netblocks.google.com', 'v=spf1 ip4:35.190.247.0/24 ip4:64.233.160.0/19 ~all'),
  rr.txt('_netblocks2.google.com', 'v=spf1 ip6:2001:4860:4000::/36 ~all'),
  rr.txt('_netblocks3.google.com', 'v=spf1 ip4:172.217.0.0/19 ~all'),
  rr.txt('sendgrid.net', 'v=spf1 ip4:167.89.0.0/17 ~all'),
  // DMARC only at the organisational domain: two questions, one after the other
  rr.txt('_dmarc.bench.test', 'v=DMARC1; p=reject; rua=mailto:dmarc@bench.test'),
  // DKIM: a configured selector and the one of the provider seen in MX (Google Workspace: "google")
  rr.txt(`s1._domainkey.${DOMAIN}`, 'v=DKIM1; k=ed25519; p=11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo='),
  rr.txt(`google._domainkey.${DOMAIN}`, 'v=DKIM1; k=ed25519; p=11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo='),
];

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/* ------------------------------------------------------- the critical path, from the zone */

const recordsAt = (name: string, type: string): unknown[] =>
  ZONE.filter((r) => r.name === name && r.type === type).map((r) => r.data);
const txtAt = (name: string): string[] =>
  recordsAt(name, 'TXT').map((d) => (Array.isArray(d) ? d.join('') : String(d)));
const spfAt = (name: string): string | undefined => txtAt(name).find((t) => /^v=spf1( |$)/i.test(t));

/** Round trips until the SPF walk of `name` (asked at round trip `at`) has every answer. */
function spfHops(name: string, at: number): number {
  const record = spfAt(name);
  if (record === undefined) return at;
  let deepest = at;
  for (const term of record.split(' ').slice(1)) {
    const [mechanism = '', target] = term.replace(/^[+~?-]/, '').split(':');
    if (mechanism === 'include' || mechanism.startsWith('redirect=')) {
      deepest = Math.max(deepest, spfHops(target ?? mechanism.slice('redirect='.length), at + 1));
    } else if (mechanism === 'a') {
      deepest = Math.max(deepest, at + (recordsAt(target ?? name, 'A').length > 0 ? 1 : 2));
    } else if (mechanism === 'mx' || mechanism === 'exists') {
      deepest = Math.max(deepest, at + 1);
    }
  }
  return deepest;
}

function criticalPath(): { hops: number; parts: Record<string, number> } {
  const exchanges = recordsAt(DOMAIN, 'MX').map((d) => (d as { exchange: string }).exchange);
  const addresses = exchanges.flatMap((e) => recordsAt(e, 'A') as string[]);
  const listed = addresses.some((ip) =>
    LISTS.some((l) => recordsAt(`${ip.split('.').reverse().join('.')}.${l.zone}`, 'A').length > 0),
  );
  const rootIncludes = (spfAt(DOMAIN) ?? '')
    .split(' ')
    .filter((t) => t.startsWith('include:'))
    .map((t) => t.slice('include:'.length));
  const inferred = inferProviders(exchanges, rootIncludes).selectors.filter((s) => !SELECTORS.includes(s));
  const parts = {
    mx: exchanges.length > 0 ? 2 : 1,
    blacklist: addresses.length === 0 ? 2 : listed ? 4 : 3,
    spf: spfHops(DOMAIN, 1),
    dmarc: txtAt(`_dmarc.${DOMAIN}`).length > 0 ? 1 : 2,
    dkim: inferred.length > 0 ? 2 : 1,
    starttls: exchanges.length > 0 ? 2 : 1,
    dane: exchanges.length > 0 ? 2 : 1,
    'mta-sts': 2,
    bimi: 2,
    'tls-rpt': 2,
  };
  return { hops: Math.max(...Object.values(parts)), parts };
}

/* ------------------------------------------------------------------------- the run */

export async function benchMailhealth(): Promise<void> {
  const lab = await startDnsLab({ authoritative: false, delayMs: DELAY_MS, records: ZONE });
  const pki = await labPki();
  const smtp: LabSmtpServer[] = [];
  for (const host of MX_ADDRESSES)
    smtp.push(
      await startSmtpServer({
        behaviour: 'starttls',
        tls: { cert: pki.good.chain, key: pki.good.key },
        host,
        ...(smtp[0] ? { port: smtp[0].port } : {}),
      }),
    );
  const webLeaf = await labLeafFor([`mta-sts.${DOMAIN}`, 'logos.bench.test']);
  const web = await startDocumentServer(
    { cert: webLeaf.chain, key: webLeaf.key },
    {
      [`mta-sts.${DOMAIN}/.well-known/mta-sts.txt`]: {
        headers: { 'content-type': 'text/plain' },
        body: 'version: STSv1\nmode: enforce\nmx: aspmx.l.google.com\nmx: *.bench.test\nmax_age: 604800\n',
      },
      'logos.bench.test/logo.svg': { headers: { 'content-type': 'image/svg+xml' }, body: TINY_PS_LOGO },
    },
  );
  const services = await createServices(
    buildConfig({
      server: { dataDir: '/tmp/netdiag-bench' },
      dns: { system: [`127.0.0.1:${lab.port}`] },
      targets: { allow: ['127.0.0.0/29'] },
      dnsbl: { zones: LISTS },
      dkim: { selectors: SELECTORS },
    }),
    silentLogger,
    { smtpPort: smtp[0]!.port, webPorts: { http: 9, https: web.port }, connections: { tlsCa: pki.root.cert } },
  );
  const times: number[] = [];
  let outcome = '';
  let questions = 0;
  try {
    for (let i = 0; i < RUNS; i++) {
      services.dnsCache.clear();
      lab.clearQueries();
      // one abort listener per question in flight (about 30 here): more than EventTarget's default warning level of 10
      const signal = AbortSignal.timeout(30_000);
      setMaxListeners(100, signal);
      const ctx = createCheckContext(services, signal);
      const t0 = performance.now();
      const result = await runMailHealth(ctx, DOMAIN);
      times.push(performance.now() - t0);
      questions = lab.queries.length;
      outcome = `${result.verdict.status}; ${result.checks.map((c) => `${c.id} ${c.status}`).join(', ')}`;
    }
  } finally {
    await services.close();
    await lab.close();
    await Promise.all(smtp.map((s) => s.close()));
    await web.close();
  }
  const { hops, parts } = criticalPath();
  const wall = median(times);
  const path = hops * DELAY_MS;
  console.log(`\n## mailhealth-check, server adds ${DELAY_MS} ms per answer (${outcome})`);
  console.log(
    `critical path ${hops} dependent questions = ${path} ms (${Object.entries(parts)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}); ${questions} questions in all`,
  );
  console.log(`median wall ${wall.toFixed(1)} ms over ${RUNS} runs: ratio ${(wall / path).toFixed(2)} (aim ≤ 1.2)`);
}
