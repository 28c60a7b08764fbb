/**
 * Choosing facts among the entries of a WHOIS answer: which entry of which field
 * table wins, how name servers and abuse contacts are gathered, how an answer's
 * numeric dates are to be read.
 */

import { domainToASCII } from 'node:url';
import { normaliseWhoisDate } from './dates.js';
import type { DateReadingOptions } from './dates.js';
import {
  DOMAIN_NAME_KEYS,
  EXPIRES_KEYS,
  NAME_SERVER_KEYS,
  REGISTRAR_KEYS,
  SIDE_OBJECT_CLASSES,
} from './field-tables.js';
import type { FieldTiers } from './field-tables.js';
import type { WhoisEntry } from './lines.js';
import { REDACTION_PHRASES } from './phrases.js';
import { replaceBracketed } from './scan.js';
import { cleanDomainName, cleanRegistrar, readEmail, readHostNames, readPhone } from './values.js';
import { canonicalName } from '../../../net/dns-name.js';

/**
 * Longest value read as a withheld field; longer ones are prose. ("Not Disclosed - Visit
 * www.internet.ee for webbased WHOIS", the longest such value seen, has 56 characters.)
 */
const MAX_FIELD_VALUE_LENGTH = 64;

/**
 * A field whose value says it was withheld. Keyless and long lines are terms of use
 * ("...access to non-public data..."), not withheld fields.
 */
export function isRedactedValue(entry: WhoisEntry): boolean {
  if (entry.key === '' || entry.value.length > MAX_FIELD_VALUE_LENGTH) return false;
  const value = entry.value.toLowerCase();
  return REDACTION_PHRASES.some((phrase) => phrase.test(value));
}

/**
 * In a multiple-match answer (Verisign lists every name that starts with the query),
 * the paragraphs that state another domain name are about that domain: when one
 * paragraph states the queried name, the others that state a different one are dropped.
 */
export function keepQueriedRecords(entries: readonly WhoisEntry[], queriedDomain: string | undefined): WhoisEntry[] {
  const wanted = comparableName(queriedDomain ?? '');
  if (wanted === '') return [...entries];
  const tier = setsOf(DOMAIN_NAME_KEYS)[0] ?? new Set<string>();
  const statedByParagraph = new Map<number, string>();
  for (const entry of entries) {
    if (statedByParagraph.has(entry.paragraph) || !matchesTier(entry, tier)) continue;
    const name = cleanDomainName(entry.value, { allowSingleLabel: true });
    if (name !== null) statedByParagraph.set(entry.paragraph, comparableName(name));
  }
  if (![...statedByParagraph.values()].includes(wanted)) return [...entries];
  return entries.filter((entry) => {
    const stated = statedByParagraph.get(entry.paragraph);
    return stated === undefined || stated === wanted;
  });
}

/** A-label form, lower-case, without a trailing dot, so that "例子.com" and "xn--fsqu00a.com" compare equal. */
function comparableName(name: string): string {
  const trimmed = canonicalName(name.trim());
  return domainToASCII(trimmed) || trimmed;
}

/** Keys that may head an unindented list without a colon. */
export const LIST_HEADERS: ReadonlySet<string> = new Set(NAME_SERVER_KEYS.flat());

/** The forms under which an entry's key is looked up in the field tables. */
function keyForms(entry: WhoisEntry): string[] {
  const forms = [entry.key];
  if (entry.section !== '' && entry.section !== entry.key) forms.push(`${entry.section} ${entry.key}`);
  // .ee "Registrar:\nname: Zone Media OÜ": the paragraph's opening header qualifies its keys.
  if (entry.paragraphClass !== '' && entry.paragraphClass !== entry.key && entry.paragraphClass !== entry.section) {
    forms.push(`${entry.paragraphClass} ${entry.key}`);
  }
  // "(...)" notes, found by a scan: `/\([^)]*\)/g` rescans an unclosed "((((…" from each bracket.
  const withoutNotes = replaceBracketed(entry.key, '(', ')', ' ').replace(/\s+/g, ' ').trim();
  if (withoutNotes !== entry.key) forms.push(withoutNotes);
  if (withoutNotes.includes('/')) {
    for (const part of withoutNotes.split('/')) forms.push(part.trim());
  }
  return forms;
}

const tierSets = new WeakMap<FieldTiers, readonly ReadonlySet<string>[]>();

function setsOf(tiers: FieldTiers): readonly ReadonlySet<string>[] {
  let sets = tierSets.get(tiers);
  if (sets === undefined) {
    sets = tiers.map((tier) => new Set(tier));
    tierSets.set(tiers, sets);
  }
  return sets;
}

function matchesTier(entry: WhoisEntry, tier: ReadonlySet<string>): boolean {
  return keyForms(entry).some((form) => tier.has(form));
}

/** The first valid value of the first tier that has one; within a tier, the answer's order. */
export function pickFirst<T>(
  entries: readonly WhoisEntry[],
  tiers: FieldTiers,
  read: (entry: WhoisEntry) => T | null,
): T | null {
  for (const tier of setsOf(tiers)) {
    for (const entry of entries) {
      if (!matchesTier(entry, tier)) continue;
      const value = read(entry);
      if (value !== null) return value;
    }
  }
  return null;
}

/**
 * Like pickFirst, but the latest date of the first run of matching lines (audit-trail keys such as
 * ISOC-IL's "changed:", one line per change, oldest first). Only that first, unbroken run is the
 * domain's: every other object of an RPSL answer (name-server set, registrar, person) keeps its own
 * trail, and some registries (.ar) print the next object without a blank line between.
 */
export function pickLatest(
  entries: readonly WhoisEntry[],
  tiers: FieldTiers,
  read: (entry: WhoisEntry) => string | null,
): string | null {
  for (const tier of setsOf(tiers)) {
    let latest: string | null = null;
    let previousLine = -1;
    for (const entry of entries) {
      if (!matchesTier(entry, tier)) continue;
      if (latest !== null && entry.line !== previousLine + 1) break;
      const value = read(entry);
      if (value === null) continue;
      // ISO 8601 UTC strings of one format compare as text
      if (latest === null || value > latest) latest = value;
      previousLine = entry.line;
    }
    if (latest !== null) return latest;
  }
  return null;
}

/**
 * The registrar's name: from the first tier of REGISTRAR_KEYS that gives one, the first name in
 * Latin script where the answer gives the name in two scripts (KISA prints "등록대행자: (주)후이즈" in
 * its Korean part and "Authorized Agency: Whois Corp." in its English part), else the first name.
 * Latin script is what the rest of the facts (host names, ICANN's registrar names) are written in.
 * A registry handle only where the answer names no registrar (NIC.CR "NIC-REG1").
 */
export function pickRegistrar(entries: readonly WhoisEntry[]): string | null {
  for (const tier of setsOf(REGISTRAR_KEYS)) {
    let firstName: string | null = null;
    for (const entry of entries) {
      if (!matchesTier(entry, tier)) continue;
      const name = cleanRegistrar(entry.value);
      if (name === null) continue;
      if (isLatinScript(name)) return name;
      firstName ??= name;
    }
    if (firstName !== null) return firstName;
  }
  return pickFirst(entries, REGISTRAR_KEYS, (entry) => cleanRegistrar(entry.value, { allowHandle: true }));
}

const LETTER = /\p{L}/u;
const NON_LATIN_LETTER = /(?!\p{Script=Latin})\p{L}/u;

/** Has letters, all of them Latin ("Zone Media OÜ" is; "(주)후이즈" and "ТОВ «Імена»" are not). */
function isLatinScript(text: string): boolean {
  return LETTER.test(text) && !NON_LATIN_LETTER.test(text);
}

/**
 * Paragraphs about an object printed beside the domain (SIDE_OBJECT_CLASSES): their record dates
 * ("changed:", "created:", "registered:") are that object's. A paragraph that states an expiry
 * is the domain's, whatever key opens it.
 */
export function sideObjectParagraphs(entries: readonly WhoisEntry[]): ReadonlySet<number> {
  const opened = new Set<number>();
  const statesExpiry = new Set<number>();
  const expiryTiers = setsOf(EXPIRES_KEYS);
  for (const entry of entries) {
    if (SIDE_OBJECT_CLASSES.test(entry.paragraphClass)) opened.add(entry.paragraph);
    if (expiryTiers.some((tier) => matchesTier(entry, tier))) statesExpiry.add(entry.paragraph);
  }
  return new Set([...opened].filter((paragraph) => !statesExpiry.has(paragraph)));
}

export function collectNameServers(entries: readonly WhoisEntry[]): string[] {
  const tiers = setsOf(NAME_SERVER_KEYS);
  const found = new Set<string>();
  for (const entry of entries) {
    // "Name Server 1", "ns_name_01", "Third Server Hostname": numbering words are not part of the key.
    const stripped = { ...entry, key: entry.key.replace(NUMBERING, ' ').replace(/\s+/g, ' ').trim() };
    if (!tiers.some((tier) => matchesTier(entry, tier) || matchesTier(stripped, tier))) continue;
    for (const host of readHostNames(entry.value)) found.add(host);
  }
  return [...found];
}

/** A date carried inside another value, found by the first pattern whose group 1 reads as a date. */
export function findDateInValues(
  entries: readonly WhoisEntry[],
  patterns: readonly RegExp[],
  options: DateReadingOptions,
): string | null {
  for (const entry of entries) {
    for (const pattern of patterns) {
      const found = pattern.exec(entry.value)?.[1];
      const date = found === undefined ? null : normaliseWhoisDate(found, options);
      if (date !== null) return date;
    }
  }
  return null;
}

const NUMBERING = /\d+|\b(?:primary|secondary|tertiary|first|second|third|fourth|fifth|sixth|seventh|eighth)\b/g;

/** The domain name the answer states, preferring an exact match of the queried name (multiple-match answers). */
export function pickDomainName(entries: readonly WhoisEntry[], queriedDomain: string | undefined): string | null {
  const wanted = queriedDomain === undefined ? undefined : canonicalName(queriedDomain.trim());
  if (wanted) {
    // The queried name itself may be a TLD (a question to whois.iana.org).
    const exact = pickFirst(entries, DOMAIN_NAME_KEYS, (entry) => {
      const name = cleanDomainName(entry.value, { allowSingleLabel: true });
      return name === wanted ? name : null;
    });
    if (exact !== null) return exact;
  }
  return pickFirst(entries, DOMAIN_NAME_KEYS, (entry) => cleanDomainName(entry.value));
}

/**
 * The registrar abuse contact: keys such as "Registrar Abuse Contact Email" (ICANN)
 * or the values under an "Abuse Contact:" header (SIDN).
 */
export interface AbuseContact {
  abuseEmail: string | null;
  abusePhone: string | null;
}

export function findAbuseContact(entries: readonly WhoisEntry[]): AbuseContact {
  let abuseEmail: string | null = null;
  let abusePhone: string | null = null;
  for (const entry of entries) {
    if (!entry.key.includes('abuse') && !entry.section.includes('abuse')) continue;
    const saysPhone = /phone|tel/.test(entry.key);
    const saysEmail = /mail/.test(entry.key);
    if (abuseEmail === null && !saysPhone) abuseEmail = readEmail(entry.value);
    if (abusePhone === null && !saysEmail) abusePhone = readPhone(entry.value);
  }
  return { abuseEmail, abusePhone };
}

/**
 * Whether "03/08/2014" in this answer means 3 August or 8 March: an answer that
 * prints a day above 12 in either place settles it for all its dates (Freenom
 * prints "12/18/2001"); otherwise day first, as almost every registry does.
 */
export function inferDateOrder(entries: readonly WhoisEntry[]): DateReadingOptions {
  for (const entry of entries) {
    if (/mm[/.-]dd[/.-]yyyy/.test(entry.key)) return { dayFirst: false };
    if (/dd[/.-]mm[/.-]yyyy/.test(entry.key)) return { dayFirst: true };
  }
  let monthFirstSeen = false;
  for (const entry of entries) {
    const pattern = /(?<!\d)(\d{1,2})[/-](\d{1,2})[/-]\d{4}(?!\d)/g;
    for (const match of entry.value.matchAll(pattern)) {
      if (Number(match[1]) > 12) return { dayFirst: true };
      if (Number(match[2]) > 12) monthFirstSeen = true;
    }
  }
  return { dayFirst: !monthFirstSeen };
}
