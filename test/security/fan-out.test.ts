/**
 * Threat: one cheap request that makes the service ask thousands of DNS questions — of the resolver and
 * of the block-list operators, who cut off resolvers that ask too many — by publishing many MX hosts
 * with many addresses. Every check follows the best MX_MAX_EXCHANGES hosts and of each the first
 * MX_MAX_ADDRESSES_PER_EXCHANGE addresses, says what it left out, and the check context refuses a
 * request's questions past its budget with FAN_OUT_LIMIT. Questions are counted where they arrive: at
 * the lab resolver.
 *
 * Before the caps, mx-lookup of many-mx.test below asked 802 questions and mailhealth-check 10,420,
 * 1,600 of them of each of the six lists.
 */
import { setMaxListeners } from 'node:events';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runMailHealth } from '../../src/checks/composite/mailhealth-check/run.js';
import { MAIL_PROVIDERS } from '../../src/checks/dns/shared/mail-providers.js';
import { createCheckContext } from '../../src/loaders/context.js';
import {
  DKIM_PROVIDER_SELECTORS_MAX,
  dnsQuestionBudget,
  MX_MAX_ADDRESSES_PER_EXCHANGE,
  MAIL_TRANSPORT_MAX_HOSTS,
  MX_MAX_EXCHANGES,
  worstHonestMailhealthQuestions,
} from '../../src/loaders/fan-out-limits.js';
import { createTestApp, graphql, type TestApp } from '../helpers/app.js';
import { openApiMismatches } from '../helpers/openapi.js';
import { rr, startDnsLab, type DnsLab, type LabZoneRecord } from '../lab/dns-server.js';

/** 400 MX hosts of 4 IPv4 addresses each, preferences 0–49; the best one has 8 IPv4 and 2 IPv6 addresses */
const MANY = 'many-mx.test';
const MANY_HOSTS = 400;
/** what any check may follow of it: the 8 hosts of preference 0, then the first 2 of preference 1 by name */
const MANY_FOLLOWED = [0, 100, 150, 200, 250, 300, 350, 50, 1, 101].map((i) => `mx${i}.${MANY}`);
/** the largest honest domain: 10 MX hosts of 4 addresses, every address listed on every list */
const WORST = 'worst.test';
const LISTS = [1, 2, 3, 4, 5, 6].map((n) => ({ zone: `bl${n}.test`, name: `List ${n}` }));

const manyAddress = (k: number) => `127.8.${k >> 8}.${k & 255}`;
const reversed = (ip: string) => ip.split('.').reverse().join('.');

function zone(): LabZoneRecord[] {
  const records: LabZoneRecord[] = [];
  for (let i = 0; i < MANY_HOSTS; i++) {
    const host = `mx${i}.${MANY}`;
    records.push(rr.mx(MANY, i % 50, host));
    for (let j = 0; j < 4; j++) records.push(rr.a(host, manyAddress(i * 4 + j)));
  }
  for (let j = 0; j < 4; j++) records.push(rr.a(`mx0.${MANY}`, manyAddress(MANY_HOSTS * 4 + j)));
  records.push(rr.aaaa(`mx0.${MANY}`, '2001:db8::1'), rr.aaaa(`mx0.${MANY}`, '2001:db8::2'));

  for (let i = 0; i < MX_MAX_EXCHANGES; i++) {
    const host = `mx${i}.${WORST}`;
    records.push(rr.mx(WORST, 10 * i, host));
    for (let j = 0; j < MX_MAX_ADDRESSES_PER_EXCHANGE; j++) {
      const ip = `127.9.${i}.${j}`;
      records.push(rr.a(host, ip));
      for (const list of LISTS) {
        records.push(rr.a(`${reversed(ip)}.${list.zone}`, '127.0.0.2'));
        records.push(rr.txt(`${reversed(ip)}.${list.zone}`, 'listed: test'));
      }
    }
  }
  records.push(rr.txt(WORST, 'v=spf1 mx -all'), rr.txt(`_dmarc.${WORST}`, 'v=DMARC1; p=reject'));

  // an honest domain: two MX hosts sharing an address
  records.push(
    rr.mx('honest.test', 10, 'mx1.honest.test'),
    rr.mx('honest.test', 20, 'mx2.honest.test'),
    rr.a('mx1.honest.test', '127.8.200.1'),
    rr.a('mx2.honest.test', '127.8.200.2'),
    rr.a('mx2.honest.test', '127.8.200.1'),
    rr.aaaa('mx2.honest.test', '2001:db8::2'),
  );
  return records;
}

let lab: DnsLab;
let t: TestApp;
beforeAll(async () => {
  lab = await startDnsLab({ authoritative: false, records: zone() });
  t = await createTestApp({
    // a wide bound: every answer comes from the loopback lab; a busy machine must not turn one into a time-out
    dns: { system: [`127.0.0.1:${lab.port}`], timeoutMs: 5000 },
    // the lab's MX addresses count as public, so that the lists are asked about them
    targets: { allow: ['127.8.0.0/16', '127.9.0.0/16'] },
    // nothing listens on them: no SMTP session is attempted
    smtp: { enabled: false },
    dnsbl: { zones: LISTS },
  });
});
afterAll(async () => {
  await t.close();
  await lab.close();
});
beforeEach(() => {
  lab.clearQueries();
  t.services.dnsCache.clear();
});

const rest = async (tool: string, domain: string) => {
  const res = await t.get(`/api/v1/${tool}?domain=${domain}`);
  const body = await res.json();
  expect(openApiMismatches(tool, res.status, body)).toEqual([]);
  return { status: res.status, body };
};
/** distinct questions the lab saw (a truncated UDP answer asked again over TCP is one question) */
const distinctQuestions = () => new Set(lab.queries.map((q) => `${q.type} ${q.name}`));
const askedOfList = (zone: string) => lab.queries.filter((q) => q.name.endsWith(`.${zone}`));
/** Distinct questions to a list: a resend of one the busy machine answered late is the same question. */
const questionsOfList = (zone: string) => new Set(askedOfList(zone).map((q) => `${q.id} ${q.type} ${q.name}`));
const checkOf = (body: any, id: string) => body.data.checks.find((c: any) => c.id === id);

describe('mx-lookup of a domain with 400 MX hosts', () => {
  it(`resolves only the ${MX_MAX_EXCHANGES} best and says what it left out`, async () => {
    const { status, body } = await rest('mx-lookup', MANY);
    expect(status).toBe(200);
    expect(body.data.hosts.map((h: any) => h.exchange)).toEqual(MANY_FOLLOWED);
    expect(body.data.hosts[0]).toEqual({
      priority: 0,
      exchange: `mx0.${MANY}`,
      ip: manyAddress(0),
      addresses: [0, 1, 2, 3].map(manyAddress),
      omittedAddresses: 6,
      provider: null,
    });
    expect(body.data.hosts[1]).toMatchObject({ addresses: [400, 401, 402, 403].map(manyAddress), omittedAddresses: 0 });
    expect(body.data).toMatchObject({ omittedExchanges: MANY_HOSTS - MX_MAX_EXCHANGES, truncated: true });
    // the MX question (over UDP, then TCP for the whole answer), and A and AAAA of each host followed: 802 before
    expect(lab.queries.length).toBeLessThanOrEqual(2 + 2 * MX_MAX_EXCHANGES);
    expect([...distinctQuestions()].sort()).toEqual(
      [`MX ${MANY}`, ...MANY_FOLLOWED.flatMap((h) => [`A ${h}`, `AAAA ${h}`])].sort(),
    );
  });

  it('15 GraphQL aliases of it ask the same questions as one, and say what was left out', async () => {
    const aliases = Array.from(
      { length: 15 },
      (_, i) => `m${i}: mxLookup(domain: "${MANY}") { omittedExchanges truncated }`,
    );
    const res = await graphql(t, `{ ${aliases.join(' ')} }`);
    expect(res.body.errors).toBeUndefined();
    expect(Object.values(res.body.data)).toEqual(Array(15).fill({ omittedExchanges: 390, truncated: true }));
    expect(distinctQuestions().size).toBe(1 + 2 * MX_MAX_EXCHANGES);
  });
});

describe('mailhealth-check of a domain with 400 MX hosts', () => {
  it('asks the lists only about the addresses followed, stays within the budget, and says what it left out', async () => {
    const { status, body } = await rest('mailhealth-check', MANY);
    expect(status).toBe(200);
    const followed = new Set(
      [
        0,
        1,
        2,
        3,
        ...[100, 150, 200, 250, 300, 350, 50, 1, 101].flatMap((i) => [0, 1, 2, 3].map((j) => i * 4 + j)),
      ].map((k) => reversed(manyAddress(k))),
    );
    expect(followed.size).toBe(MX_MAX_EXCHANGES * MX_MAX_ADDRESSES_PER_EXCHANGE);
    for (const list of LISTS) {
      // one A question per address followed (none is listed, so no TXT): 1,600 per list before
      const asked = askedOfList(list.zone);
      expect(questionsOfList(list.zone).size, list.zone).toBe(MX_MAX_EXCHANGES * MX_MAX_ADDRESSES_PER_EXCHANGE);
      expect(new Set(asked.map((q) => q.name.slice(0, -list.zone.length - 1))), list.zone).toEqual(followed);
    }
    // 10,420 before; the largest honest check asks no fewer
    const config = t.services.config;
    expect(distinctQuestions().size).toBeLessThanOrEqual(worstHonestMailhealthQuestions(config));
    expect(distinctQuestions().size).toBeLessThan(dnsQuestionBudget(config));
    // no other MX host is resolved
    const hostsAsked = new Set(lab.queries.filter((q) => /^mx\d+\./.test(q.name)).map((q) => q.name));
    expect([...hostsAsked].sort()).toEqual([...MANY_FOLLOWED].sort());

    expect(checkOf(body, 'mx')).toMatchObject({
      status: 'info',
      summary:
        '400 MX hosts: only the 10 best by preference were checked; senders try them in that order and stop after a few (RFC 5321 §5.1), so the other 390 are almost never used: remove those MX records.',
      details: { total: MANY_HOSTS, omittedExchanges: 390 },
    });
    expect(checkOf(body, 'mx').details.hosts).toHaveLength(MX_MAX_EXCHANGES);
    expect(checkOf(body, 'blacklist')).toMatchObject({
      status: 'info',
      summary:
        'No listing found for 40 addresses on 6 lists, but 390 MX hosts beyond the 10 best and 6 addresses beyond the first 4 of a host were not looked up.',
      details: { checkedIps: 40, listCount: 6, omittedExchanges: 390, omittedAddresses: 6 },
    });
    expect(checkOf(body, 'mta-sts').details).toMatchObject({ omittedExchanges: 390 });
    // one starttls and one dane check per MX host followed: the first MAIL_TRANSPORT_MAX_HOSTS tested, the rest not
    for (const id of ['starttls', 'dane']) {
      const perHost = body.data.checks.filter((c: any) => c.id === id);
      expect(perHost, id).toHaveLength(MX_MAX_EXCHANGES);
      expect(
        perHost.slice(MAIL_TRANSPORT_MAX_HOSTS).map((c: any) => c.status),
        id,
      ).toEqual(Array(MX_MAX_EXCHANGES - MAIL_TRANSPORT_MAX_HOSTS).fill('info'));
    }
    for (const check of body.data.checks) expect(check.error ?? '', check.id).not.toMatch(/DNS questions one request/);
  });
});

describe('the question budget', () => {
  const contextWithBudget = (dnsQuestionBudget: number) => {
    const signal = AbortSignal.timeout(15_000);
    setMaxListeners(300, signal);
    return createCheckContext(t.services, signal, { dnsQuestionBudget });
  };

  it('counts a question asked again in the request once, and refuses the next one with FAN_OUT_LIMIT, unasked', async () => {
    const ctx = contextWithBudget(3);
    await ctx.resolve(MANY, 'MX');
    await ctx.addresses(`mx0.${MANY}`);
    // asked again, in another spelling or through the target guard: the same questions (the guard then
    // refuses mx0's documentation IPv6 address, not the question)
    await ctx.resolve(MANY, 'MX');
    await ctx.resolve(`MX0.${MANY}.`, 'A');
    await expect(
      ctx.guard.check({ kind: 'hostname', hostname: `mx0.${MANY}` }, ctx.signal, 'host'),
    ).rejects.toMatchObject({ code: 'TARGET_REFUSED' });
    await expect(ctx.resolve(`mx1.${MANY}`, 'A')).rejects.toMatchObject({ code: 'FAN_OUT_LIMIT', status: 502 });
    // and again: the same refusal, still unasked
    await expect(ctx.resolve(`mx1.${MANY}`, 'A')).rejects.toMatchObject({ code: 'FAN_OUT_LIMIT' });
    // (a block list's question the previous test's check resent late, on a busy machine, is not this one's)
    const asked = [...distinctQuestions()].filter((q) => q.endsWith(MANY));
    expect(asked.sort()).toEqual([`A mx0.${MANY}`, `AAAA mx0.${MANY}`, `MX ${MANY}`]);
  });

  it('a check that runs out of it reports the parts that could not finish, and asks nothing more', async () => {
    const budget = 30;
    const result = await runMailHealth(contextWithBudget(budget), MANY);
    expect(distinctQuestions().size).toBeLessThanOrEqual(budget);
    const stopped = result.checks.filter(
      (c) => c.status === 'error' && /DNS questions one request may ask/.test(c.error!),
    );
    expect(stopped.length).toBeGreaterThan(0);
  });

  it('covers the largest honest check: 10 hosts of 4 addresses, each listed on each of 6 lists', async () => {
    expect(new Set(MAIL_PROVIDERS.flatMap((p) => p.selectors)).size).toBeLessThanOrEqual(DKIM_PROVIDER_SELECTORS_MAX);
    const { status, body } = await rest('mailhealth-check', WORST);
    expect(status).toBe(200);
    expect(checkOf(body, 'blacklist')).toMatchObject({
      status: 'critical',
      details: { checkedIps: 40, listedIps: 40, omittedExchanges: 0, omittedAddresses: 0 },
    });
    for (const list of LISTS) expect(questionsOfList(list.zone).size, list.zone).toBe(2 * 40);
    for (const check of body.data.checks) expect(check.status, check.id).not.toBe('error');
    expect(distinctQuestions().size).toBeLessThanOrEqual(worstHonestMailhealthQuestions(t.services.config));
  });
});

describe('an honest domain', () => {
  it('mx-lookup: every host and address, nothing left out, the same questions', async () => {
    const { body } = await rest('mx-lookup', 'honest.test');
    expect(body.data).toEqual({
      domain: 'honest.test',
      hosts: [
        {
          priority: 10,
          exchange: 'mx1.honest.test',
          ip: '127.8.200.1',
          addresses: ['127.8.200.1'],
          omittedAddresses: 0,
          provider: null,
        },
        {
          priority: 20,
          exchange: 'mx2.honest.test',
          ip: '127.8.200.2',
          addresses: ['127.8.200.2', '127.8.200.1', '2001:db8::2'],
          omittedAddresses: 0,
          provider: null,
        },
      ],
      omittedExchanges: 0,
      truncated: false,
      nullMx: false,
      rcode: 'NOERROR',
    });
    // its own questions (the previous test's check, on a busy machine, can still be asking the lists)
    const own = lab.queries.filter((q) => q.name.endsWith('honest.test'));
    expect(own.map((q) => `${q.type} ${q.name}`).sort()).toEqual(
      [
        'MX honest.test',
        'A mx1.honest.test',
        'AAAA mx1.honest.test',
        'A mx2.honest.test',
        'AAAA mx2.honest.test',
      ].sort(),
    );
  });

  it('mailhealth-check: every IPv4 address asked about once on every list, nothing left out', async () => {
    const { body } = await rest('mailhealth-check', 'honest.test');
    expect(checkOf(body, 'mx')).toMatchObject({ status: 'ok', details: { total: 2, omittedExchanges: 0 } });
    expect(checkOf(body, 'blacklist')).toMatchObject({
      status: 'ok',
      summary: 'No listing found for 2 addresses on 6 lists.',
      details: { checkedIps: 2, omittedExchanges: 0, omittedAddresses: 0 },
    });
    for (const list of LISTS) expect(askedOfList(list.zone).length, list.zone).toBe(2);
  });
});
