/**
 * WHOIS answer → normalised facts. Pure: no I/O, never throws on any input.
 *
 * WHOIS (RFC 3912) is free text, so the facts are found through data: `readEntries`
 * turns the layouts registries use into key/value entries with their header and
 * paragraph, the field tables (`whois/field-tables.ts`) say which keys carry which
 * fact, and the phrase tables (`whois/phrases.ts`) hold the "not found" and "quota
 * exceeded" wording. Supporting another registry means adding its words to a table.
 *
 * No npm WHOIS parser is used: the maintained ones fetch by themselves (no injected
 * socket, time-out or byte cap) and the parse-only ones are unmaintained and cover
 * few ccTLD layouts.
 */

import { normaliseWhoisDate } from './whois/dates.js';
import {
  ANSWER_META_SECTIONS,
  CHANGE_LOG_KEYS,
  CONTACT_CONTEXT,
  CONTACT_OBJECT_DATE_KEYS,
  CREATED_KEYS,
  EXPIRES_IN_VALUE,
  EXPIRES_KEYS,
  OTHER_OBJECT_CLASSES,
  REFERRAL_KEYS,
  UPDATED_FALLBACK_SECTION,
  UPDATED_KEYS,
} from './whois/field-tables.js';
import { readEntries, splitLines, withoutIanaRecord } from './whois/lines.js';
import type { WhoisEntry } from './whois/lines.js';
import { NOT_AVAILABLE_STATUS, NOT_FOUND_PHRASES, RATE_LIMIT_PHRASES, matchesAny } from './whois/phrases.js';
import {
  LIST_HEADERS,
  collectNameServers,
  findAbuseContact,
  findDateInValues,
  inferDateOrder,
  isRedactedValue,
  keepQueriedRecords,
  pickDomainName,
  pickFirst,
  pickLatest,
  pickRegistrar,
  sideObjectParagraphs,
} from './whois/select.js';
import { readWhoisServer } from './whois/values.js';
import type { WhoisServer } from './whois/values.js';
import type { RegistrationFacts } from './registration.js';

export { normaliseWhoisDate } from './whois/dates.js';
export type { DateReadingOptions } from './whois/dates.js';
export type { WhoisServer } from './whois/values.js';

export interface WhoisFacts extends RegistrationFacts {
  /** The registry's own "no match" / "not found" / "available" wording, and no domain facts. */
  notFound: boolean;
  /** A quota, rate-limit or access-denied refusal instead of an answer. */
  rateLimited: boolean;
  /** Next WHOIS server to ask: IANA `refer:`/`whois:`, `Registrar WHOIS Server:`. */
  referral: WhoisServer | null;
}

/** Answers are capped at 256 KiB by the probe; the parser bounds its own work the same way. */
const MAX_PARSED_CHARS = 256 * 1024;

export function parseWhois(text: string, queriedDomain?: string): WhoisFacts {
  const bounded = withoutIanaRecord(text.length > MAX_PARSED_CHARS ? text.slice(0, MAX_PARSED_CHARS) : text);
  const entries = keepQueriedRecords(readEntries(bounded, LIST_HEADERS), queriedDomain);
  // Contact objects' own dates and names are not the domain's: leave out entries under a
  // contact header, and a contact paragraph's record dates.
  const domainEntries = entries.filter(
    (entry) =>
      !CONTACT_CONTEXT.test(entry.section) &&
      !ANSWER_META_SECTIONS.test(entry.section) &&
      !OTHER_OBJECT_CLASSES.test(entry.paragraphClass),
  );
  // The record dates of a contact, of the registrar or of a name-server set printed beside the
  // domain are that object's (.ee "Registrar:" and "Name servers:" blocks end with their own "changed:").
  const sideObjects = sideObjectParagraphs(domainEntries);
  const domainDateEntries = domainEntries.filter(
    (entry) =>
      !CONTACT_OBJECT_DATE_KEYS.has(entry.key) ||
      !(CONTACT_CONTEXT.test(entry.paragraphClass) || sideObjects.has(entry.paragraph)),
  );
  const dateOptions = inferDateOrder(entries);
  const readDate = (entry: WhoisEntry): string | null => normaliseWhoisDate(entry.value, dateOptions);

  const creationDate = pickFirst(domainDateEntries, CREATED_KEYS, readDate);
  const ownUpdatedDate =
    pickFirst(domainDateEntries, UPDATED_KEYS, readDate) ?? pickLatest(domainDateEntries, CHANGE_LOG_KEYS, readDate);
  const expiryDate =
    pickFirst(domainDateEntries, EXPIRES_KEYS, readDate) ??
    findDateInValues(domainDateEntries, EXPIRES_IN_VALUE, dateOptions);
  const registrar = pickRegistrar(domainEntries);
  const referral = pickFirst(domainEntries, REFERRAL_KEYS, (entry) => readWhoisServer(entry.value));
  const domainName = pickDomainName(domainEntries, queriedDomain);
  // DK Hostmaster prints the domain itself under "DNS:"; a domain is not its own name server host.
  const ownNames = new Set([domainName, queriedDomain?.toLowerCase()].filter((name) => name != null));
  const nameServers = collectNameServers(domainEntries).filter((host) => !ownNames.has(host));
  const { abuseEmail, abusePhone } = findAbuseContact(entries);

  const lines = splitLines(bounded.toLowerCase());
  // Facts only a registered domain has; an available one may still echo its name and a status.
  const hasDomainFacts =
    [creationDate, ownUpdatedDate, expiryDate, registrar].some((fact) => fact !== null) || nameServers.length > 0;
  // Only a registered domain's answer lends it the answer section's date (an available name's has one too).
  const updatedDate =
    ownUpdatedDate ??
    (hasDomainFacts
      ? pickFirst(
          entries.filter((entry) => entry.section === UPDATED_FALLBACK_SECTION),
          UPDATED_KEYS,
          readDate,
        )
      : null);
  const rateLimited = !hasDomainFacts && matchesAny(lines, RATE_LIMIT_PHRASES);
  const notFound =
    !hasDomainFacts && !rateLimited && matchesAny(lines, NOT_FOUND_PHRASES) && !matchesAny(lines, NOT_AVAILABLE_STATUS);
  const redacted = entries.some(isRedactedValue);

  return {
    notFound,
    rateLimited,
    registrar,
    creationDate,
    updatedDate,
    expiryDate,
    nameServers,
    abuseEmail,
    abusePhone,
    referral,
    redacted,
    domainName,
  };
}
