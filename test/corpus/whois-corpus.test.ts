/**
 * The WHOIS parser against the shared corpus of real answers (../shared/fixtures/whois,
 * see its README): every asserted fact of every `.expected.json` must come out
 * right, except the misses listed with a reason in `whois-known-misses.json`. A new
 * miss fails, and so does a listed miss that is now right (take it off the list).
 * A per-fact accuracy table is printed at the end.
 *
 * The shared expectations are upstream's and read-only here. Facts the project asserts of the
 * same answers on top of them (a fact upstream did not assert) are listed, each with the reason
 * the answer supports it, in `whois-added-facts.json`; a case is added there. `null` asserts that
 * the answer states no such fact (a database time is not the domain's update).
 */

import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseWhois } from '../../src/probes/registry/whois-parse.js';
import type { WhoisFacts } from '../../src/probes/registry/whois-parse.js';
import { sharedFixturesDir } from './shared-dir.js';

interface ExpectedFacts {
  not_found?: boolean;
  rate_limited?: boolean;
  registrar?: string | null;
  created?: string | null;
  updated?: string | null;
  expires?: string | null;
  name_servers?: string[];
  abuse_email?: string | null;
  abuse_phone?: string | null;
}

type FactName = keyof ExpectedFacts;

interface KnownMiss {
  file: string;
  fact: FactName;
  reason: string;
}

/** Facts the project asserts of a corpus answer beside upstream's expectation file. */
interface AddedFacts {
  file: string;
  facts: ExpectedFacts;
  reason: string;
}

const FACTS: readonly FactName[] = [
  'not_found',
  'rate_limited',
  'registrar',
  'created',
  'updated',
  'expires',
  'name_servers',
  'abuse_email',
  'abuse_phone',
];

/** Below this share of asserted facts right, the suite fails even if every miss were listed. */
const MINIMUM_ACCURACY = 0.99;
/** Generous bound per answer: the parser is linear and takes about a millisecond. */
const MAX_PARSE_MS = 250;

const fixturesDir = sharedFixturesDir();
const whoisDir = fixturesDir !== null && existsSync(join(fixturesDir, 'whois')) ? join(fixturesDir, 'whois') : null;
if (whoisDir === null) {
  console.log('whois corpus: ../shared/fixtures/whois not found (set NETDIAG_SHARED_FIXTURES); corpus suite skipped');
}

const knownMisses = JSON.parse(
  readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'whois-known-misses.json'), 'utf8'),
) as readonly KnownMiss[];
const knownMissKeys = new Set(knownMisses.map((miss) => `${miss.file}#${miss.fact}`));

const addedFacts = JSON.parse(
  readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'whois-added-facts.json'), 'utf8'),
) as readonly AddedFacts[];
const addedFactsByFile = new Map(addedFacts.map((added) => [added.file, added.facts]));

function answerFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.txt'))
    .sort();
}

/** `<tld>__<domain>[@source].txt` → the queried domain, or undefined for "unknown". */
function queriedDomainOf(file: string): string | undefined {
  const domain = file
    .replace(/\.txt$/, '')
    .split('__')[1]
    ?.split('@')[0];
  return domain === undefined || domain === 'unknown' ? undefined : domain;
}

/** Lower-case, without the web addresses and Nominet tags that some upstream expectations keep. */
function normaliseName(value: string): string {
  return value
    .toLowerCase()
    .replace(/\(\s*https?:\/\/[^)]*\)|\[tag\s*=[^\]]*\]|https?:\/\/\S+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Upstream keeps the registrar string whole or in part: containment either way,
 * the shorter at least half the longer.
 */
function sameRegistrar(expected: string, actual: string | null): boolean {
  if (actual === null) return false;
  const wanted = normaliseName(expected);
  const got = normaliseName(actual);
  if (got.includes(wanted)) return true;
  return wanted.includes(got) && got.length * 2 >= wanted.length;
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/**
 * Compares at the precision of the expected value (fixtures README): a zone → same
 * instant to the second; a time without zone → the same wall-clock time in some zone
 * (offset within ±14 h, a multiple of 15 min); a date alone → exactly that date when
 * the parser read a date alone (midnight UTC), else that date in some zone.
 */
function sameDate(expected: string, actual: string | null): boolean {
  if (actual === null) return false;
  const got = Date.parse(actual);
  if (Number.isNaN(got)) return false;
  if (/^\d{4}-\d{2}-\d{2}$/.test(expected)) {
    const dayStart = Date.parse(`${expected}T00:00:00Z`);
    if (got % DAY_MS === 0) return got === dayStart;
    return got >= dayStart - 14 * HOUR_MS && got < dayStart + DAY_MS + 12 * HOUR_MS;
  }
  if (/(?:Z|[+-]\d{2}:\d{2})$/.test(expected)) {
    return Math.floor(got / 1000) === Math.floor(Date.parse(expected) / 1000);
  }
  const wallClock = Date.parse(`${expected}Z`);
  const difference = Math.floor(got / 1000) * 1000 - wallClock;
  return Math.abs(difference) <= 14 * HOUR_MS && difference % (15 * 60_000) === 0;
}

function sameNameServers(expected: readonly string[], actual: readonly string[]): boolean {
  const wanted = new Set(expected.map((name) => name.toLowerCase()));
  const got = new Set(actual);
  return wanted.size === got.size && [...wanted].every((name) => got.has(name));
}

function digits(value: string): string {
  return value.replace(/\D/g, '');
}

/** An asserted `null`: the answer states no such fact, so the parser must give none. */
function statesNone(fact: FactName, facts: WhoisFacts): boolean {
  const value = shownValue(fact, facts);
  return value === null || (Array.isArray(value) && value.length === 0);
}

function factIsRight(fact: FactName, expected: ExpectedFacts, facts: WhoisFacts): boolean {
  if (expected[fact] === null) return statesNone(fact, facts);
  switch (fact) {
    case 'not_found':
      return facts.notFound === expected.not_found;
    case 'rate_limited':
      return facts.rateLimited === expected.rate_limited;
    case 'registrar':
      return sameRegistrar(expected.registrar ?? '', facts.registrar);
    case 'created':
      return sameDate(expected.created ?? '', facts.creationDate);
    case 'updated':
      return sameDate(expected.updated ?? '', facts.updatedDate);
    case 'expires':
      return sameDate(expected.expires ?? '', facts.expiryDate);
    case 'name_servers':
      return sameNameServers(expected.name_servers ?? [], facts.nameServers);
    case 'abuse_email':
      return facts.abuseEmail !== null && facts.abuseEmail.toLowerCase() === (expected.abuse_email ?? '').toLowerCase();
    case 'abuse_phone':
      return facts.abusePhone !== null && digits(facts.abusePhone) === digits(expected.abuse_phone ?? '');
  }
}

function shownValue(fact: FactName, facts: WhoisFacts): unknown {
  const byFact: Record<FactName, unknown> = {
    not_found: facts.notFound,
    rate_limited: facts.rateLimited,
    registrar: facts.registrar,
    created: facts.creationDate,
    updated: facts.updatedDate,
    expires: facts.expiryDate,
    name_servers: facts.nameServers,
    abuse_email: facts.abuseEmail,
    abuse_phone: facts.abusePhone,
  };
  return byFact[fact];
}

interface FileResult {
  /** Facts asserted by the expectation file, each with whether the parser got it right. */
  checked: { fact: FactName; right: boolean; added: boolean; detail: string }[];
}

interface Count {
  right: number;
  asserted: number;
}

function expectationFileOf(file: string): string {
  return file.replace(/\.txt$/, '.expected.json');
}

/** Upstream's expectation file, if any, with the facts added here. */
function expectationsOf(dir: string, file: string): ExpectedFacts {
  const path = join(dir, expectationFileOf(file));
  const upstream = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as ExpectedFacts) : {};
  return { ...upstream, ...addedFactsByFile.get(file) };
}

/** Parses each answer once; every test reads the same results, whatever runs first. */
function evaluator(dir: string): (file: string) => FileResult {
  const cache = new Map<string, FileResult>();
  return (file) => {
    const cached = cache.get(file);
    if (cached) return cached;
    const text = readFileSync(join(dir, file), 'utf8');
    const expected = expectationsOf(dir, file);
    const facts = parseWhois(text, queriedDomainOf(file));
    const added = addedFactsByFile.get(file) ?? {};
    const checked = FACTS.filter((fact) => expected[fact] !== undefined).map((fact) => ({
      fact,
      right: factIsRight(fact, expected, facts),
      added: added[fact] !== undefined,
      detail: `${fact}: expected ${JSON.stringify(expected[fact])}, got ${JSON.stringify(shownValue(fact, facts))}`,
    }));
    const result = { checked };
    cache.set(file, result);
    return result;
  };
}

function formatRow(label: string, count: Count): string {
  const share = count.asserted === 0 ? '-' : `${((100 * count.right) / count.asserted).toFixed(1)} %`;
  return `  ${label.padEnd(13)} ${String(count.right).padStart(5)} / ${String(count.asserted).padEnd(5)} ${share}`;
}

describe.skipIf(whoisDir === null)('WHOIS corpus (../shared/fixtures/whois)', () => {
  const dir = whoisDir ?? '';
  const files = whoisDir === null ? [] : answerFiles(dir);
  const withExpectations = files.filter(
    (file) => existsSync(join(dir, expectationFileOf(file))) || addedFactsByFile.has(file),
  );
  const evaluate = evaluator(dir);

  /** Per fact; `origin` keeps only upstream's facts or only those added here. */
  function tally(origin?: 'upstream' | 'added'): Map<FactName, Count> {
    const counts = new Map<FactName, Count>(FACTS.map((fact) => [fact, { right: 0, asserted: 0 }]));
    for (const file of withExpectations) {
      for (const { fact, right, added } of evaluate(file).checked) {
        if (origin !== undefined && added !== (origin === 'added')) continue;
        const count = counts.get(fact);
        if (!count) continue;
        count.asserted += 1;
        if (right) count.right += 1;
      }
    }
    return counts;
  }

  function totals(counts: Map<FactName, Count>): Count {
    const all = { right: 0, asserted: 0 };
    for (const count of counts.values()) {
      all.right += count.right;
      all.asserted += count.asserted;
    }
    return all;
  }

  afterAll(() => {
    if (withExpectations.length === 0) return;
    const counts = tally();
    console.log(
      [
        `whois corpus: ${files.length} answers, ${withExpectations.length} with expected facts.`,
        'facts right / asserted:',
        ...FACTS.map((fact) => formatRow(fact, counts.get(fact) ?? { right: 0, asserted: 0 })),
        formatRow('all', totals(counts)),
        formatRow('  upstream', totals(tally('upstream'))),
        formatRow('  added here', totals(tally('added'))),
      ].join('\n'),
    );
  });

  it('has the corpus described in its README', () => {
    expect(files.length).toBeGreaterThan(700);
    expect(withExpectations.length).toBeGreaterThan(600);
  });

  it('parses every answer without throwing, each well within the time bound', () => {
    for (const file of files) {
      const text = readFileSync(join(dir, file), 'utf8');
      const timed = () => {
        const started = performance.now();
        const facts = parseWhois(text, queriedDomainOf(file));
        return { facts, elapsed: performance.now() - started };
      };
      let { facts, elapsed } = timed();
      // a pause of a loaded machine (another process, a collection) does not come back on the second
      // parse; a parser that is slow on this answer does
      if (elapsed >= MAX_PARSE_MS) ({ facts, elapsed } = timed());
      expect(elapsed, file).toBeLessThan(MAX_PARSE_MS);
      expect(Array.isArray(facts.nameServers), file).toBe(true);
      for (const date of [facts.creationDate, facts.updatedDate, facts.expiryDate]) {
        if (date !== null) expect(date, file).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      }
    }
  });

  it.each(withExpectations)('%s: asserted facts right or listed as known misses', (file) => {
    const unexpectedMisses = evaluate(file)
      .checked.filter(({ fact, right }) => !right && !knownMissKeys.has(`${file}#${fact}`))
      .map(({ detail }) => detail);
    expect(unexpectedMisses).toEqual([]);
  });

  it('lists each known miss once, with a reason', () => {
    for (const miss of knownMisses) {
      expect(FACTS, miss.file).toContain(miss.fact);
      expect(miss.reason.trim().length, `${miss.file}#${miss.fact}`).toBeGreaterThan(20);
    }
    expect(knownMissKeys.size).toBe(knownMisses.length);
  });

  it('adds facts only to answers of the corpus, each with a reason, none that upstream asserts already', () => {
    for (const added of addedFacts) {
      expect(files, added.file).toContain(added.file);
      expect(added.reason.trim().length, added.file).toBeGreaterThan(20);
      expect(Object.keys(added.facts).length, added.file).toBeGreaterThan(0);
      for (const fact of Object.keys(added.facts)) expect(FACTS, `${added.file}#${fact}`).toContain(fact);
      const path = join(dir, expectationFileOf(added.file));
      const upstream = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as ExpectedFacts) : {};
      const repeated = Object.keys(added.facts).filter((fact) => fact in upstream);
      expect(repeated, `${added.file}: asserted upstream (list a known miss instead)`).toEqual([]);
    }
    expect(addedFactsByFile.size).toBe(addedFacts.length);
  });

  it('lists no known miss that is now right or no longer in the corpus', () => {
    const missed = new Set<string>();
    for (const file of withExpectations) {
      for (const { fact, right } of evaluate(file).checked) if (!right) missed.add(`${file}#${fact}`);
    }
    const stale = knownMisses.map((miss) => `${miss.file}#${miss.fact}`).filter((key) => !missed.has(key));
    expect(stale).toEqual([]);
  });

  it(`keeps at least ${MINIMUM_ACCURACY * 100} % of asserted facts right`, () => {
    const all = totals(tally());
    expect(all.asserted).toBeGreaterThan(2000);
    expect(all.right / all.asserted).toBeGreaterThanOrEqual(MINIMUM_ACCURACY);
  });
});
