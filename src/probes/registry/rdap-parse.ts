/**
 * RDAP domain answer → registration facts (RFC 9083 JSON responses, jCard per
 * RFC 7095). Pure. Written against what registries and registrars really serve:
 * Verisign, MarkMonitor, Namecheap, Com Laude, CZ.NIC, Norid, ZDNS, Neustar
 * (see the corpus test), which differ in role spelling, date format, where the
 * abuse contact sits and whether names carry a trailing dot.
 */
import { canonicalName } from '../../net/dns-name.js';
import type { RegistrationFacts } from './registration.js';

export interface RegistryFacts extends RegistrationFacts {
  /** RDAP status values (RFC 9083 §10.2.2), as served */
  status: string[];
  /** the registrar's RDAP record of this domain, linked by a thin registry (rel "related") */
  registrarRdapUrl: string | null;
}

/** The JSON is not an RDAP domain object. */
export class RdapFormatError extends Error {}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function objects(v: unknown): Json[] {
  return Array.isArray(v) ? v.filter(isObject) : [];
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function nonEmpty(s: string | null | undefined): string | null {
  const t = s?.trim();
  return t ? t : null;
}

/**
 * A name has at most 255 octets in wire format (RFC 1035 §2.3.4), which is 253 characters
 * written out without the root's trailing dot. A longer "name" is refused, not reported.
 */
const MAX_HOST_NAME_CHARS = 253;

/**
 * Longest registrar name, e-mail address or telephone number taken from a jCard: names are
 * short, an address path has at most 256 octets (RFC 5321 §4.5.3.1.3); a longer value is none
 * of these.
 */
const MAX_CONTACT_CHARS = 256;

/** Host names as we report them: lower case, no trailing root dot (Com Laude and ZDNS add one). */
function hostName(s: unknown): string | null {
  const name = typeof s === 'string' ? nonEmpty(canonicalName(s)) : null;
  return name !== null && name.length <= MAX_HOST_NAME_CHARS ? name : null;
}

function contactText(s: string | null | undefined): string | null {
  const text = nonEmpty(s);
  return text !== null && text.length <= MAX_CONTACT_CHARS ? text : null;
}

/** Roles are case-insensitive in practice (Namecheap sends "Registrant"). */
function hasRole(entity: Json, role: string): boolean {
  return strings(entity.roles).some((r) => r.toLowerCase() === role);
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * RFC 3339 as RFC 9083 §4.5 requires, and what servers send instead:
 * "+0000" offsets (MarkMonitor), fractional seconds (ZDNS, MarkMonitor), no
 * zone at all (Namecheap; read as UTC). Returns "YYYY-MM-DDTHH:MM:SS.000Z" (fractions
 * dropped, as the WHOIS parser writes dates) or null.
 */
export function normalizeRdapDate(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const m = DATE.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', zone] = m;
  let offsetMinutes = 0;
  if (zone && zone.toUpperCase() !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    offsetMinutes =
      (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0')) * (zone.startsWith('-') ? -1 : 1);
  }
  const fields = [y, mo, d, h, mi, s].map(Number) as [number, number, number, number, number, number];
  const [year, month, day, hour, minute, second] = fields;
  const local = Date.UTC(year, month - 1, day, hour, minute, second);
  // Reject what Date.UTC silently rolls over (month 13, 31 February, 25:00).
  const check = new Date(local);
  if (
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== month - 1 ||
    check.getUTCDate() !== day ||
    check.getUTCHours() !== hour ||
    check.getUTCMinutes() !== minute ||
    check.getUTCSeconds() !== second
  ) {
    return null;
  }
  return new Date(local - offsetMinutes * 60_000).toISOString();
}

interface VcardProperty {
  name: string;
  params: Json;
  value: string;
}

/** jCard (RFC 7095): ["vcard", [[name, params, type, value, ...], ...]]. */
function vcard(entity: Json): VcardProperty[] {
  const card = entity.vcardArray;
  if (!Array.isArray(card) || card[0] !== 'vcard' || !Array.isArray(card[1])) return [];
  const props: VcardProperty[] = [];
  for (const p of card[1] as unknown[]) {
    if (!Array.isArray(p) || typeof p[0] !== 'string') continue;
    const raw: unknown = p[3];
    // Structured values (org with units, n, adr) arrive as arrays.
    const value = Array.isArray(raw)
      ? raw.filter((x) => typeof x === 'string' && x.trim() !== '').join(', ')
      : typeof raw === 'string'
        ? raw
        : '';
    props.push({ name: p[0].toLowerCase(), params: isObject(p[1]) ? p[1] : {}, value: value.trim() });
  }
  return props;
}

/** The TYPE parameter's values, lower case (servers write "type" or "Type", string or array). */
function typeParam(params: Json): string[] {
  const out: string[] = [];
  for (const [key, v] of Object.entries(params)) {
    if (key.toLowerCase() !== 'type') continue;
    const values = typeof v === 'string' ? [v] : strings(v);
    for (const x of values) out.push(...x.toLowerCase().split(','));
  }
  return out;
}

function vcardText(entity: Json, name: string): string | null {
  return contactText(vcard(entity).find((p) => p.name === name && p.value !== '')?.value);
}

function vcardEmail(entity: Json): string | null {
  const email = vcardText(entity, 'email');
  return email ? email.replace(/^mailto:/i, '') : null;
}

/** A voice number (not a fax), without the "tel:" URI scheme (RFC 3966) many servers use. */
function vcardPhone(entity: Json): string | null {
  for (const p of vcard(entity)) {
    if (p.name !== 'tel' || p.value === '') continue;
    const types = typeParam(p.params);
    if (types.includes('fax') || /^fax:/i.test(p.value)) continue;
    if (types.length > 0 && !types.includes('voice') && !types.includes('work') && !types.includes('cell')) continue;
    return contactText(p.value.replace(/^tel:/i, ''));
  }
  return null;
}

/** Registrar's name: vCard fn, else org, else the handle (CZ.NIC sends only "REG-INTERNET-CZ"). */
function registrarName(entity: Json): string | null {
  return (
    vcardText(entity, 'fn') ??
    vcardText(entity, 'org') ??
    (typeof entity.handle === 'string' ? contactText(entity.handle) : null)
  );
}

/**
 * ICANN's RDAP profile puts the abuse contact inside the registrar entity; some
 * registrars (Namecheap) put it beside the registrar at the top level instead.
 */
function abuseEntity(domain: Json, registrar: Json | undefined): Json | undefined {
  const nested = registrar ? objects(registrar.entities).find((e) => hasRole(e, 'abuse')) : undefined;
  return nested ?? objects(domain.entities).find((e) => hasRole(e, 'abuse'));
}

const REDACTION_TYPE = /redacted|truncated due to authorization/i;

/** RFC 9537 "redacted" members, or RFC 9083 §10.2.1 remark/notice types and titles saying data was withheld. */
function isRedacted(obj: Json): boolean {
  if (Array.isArray(obj.redacted) && obj.redacted.length > 0) return true;
  const marks = [...objects(obj.remarks), ...objects(obj.notices)];
  if (
    marks.some(
      (m) => (typeof m.type === 'string' && REDACTION_TYPE.test(m.type)) || /redacted/i.test(String(m.title ?? '')),
    )
  ) {
    return true;
  }
  return objects(obj.entities).some(isRedacted);
}

function eventDate(domain: Json, ...actions: string[]): string | null {
  for (const action of actions) {
    const event = objects(domain.events).find(
      (e) => typeof e.eventAction === 'string' && e.eventAction.toLowerCase() === action,
    );
    const date = normalizeRdapDate(event?.eventDate);
    if (date) return date;
  }
  return null;
}

function relatedRdapUrl(domain: Json): string | null {
  for (const link of objects(domain.links)) {
    if (link.rel !== 'related' || typeof link.href !== 'string') continue;
    const type = typeof link.type === 'string' ? link.type.toLowerCase() : '';
    if (type !== '' && type !== 'application/rdap+json') continue;
    const url = URL.parse(link.href);
    if (url && (url.protocol === 'https:' || url.protocol === 'http:') && /\/domain\/[^/]+$/i.test(url.pathname)) {
      return url.href;
    }
  }
  return null;
}

/** Facts of an RDAP domain object. Throws RdapFormatError when `json` is not one. */
export function parseRdapDomain(json: unknown): RegistryFacts {
  if (!isObject(json)) throw new RdapFormatError('the RDAP answer is not a JSON object');
  if (json.errorCode !== undefined)
    throw new RdapFormatError(`the RDAP answer is an error object (${String(json.errorCode)})`);
  if (json.objectClassName !== undefined && json.objectClassName !== 'domain') {
    throw new RdapFormatError(`the RDAP answer is a "${String(json.objectClassName)}" object, not a domain`);
  }
  if (typeof json.ldhName !== 'string' && typeof json.unicodeName !== 'string') {
    throw new RdapFormatError('the RDAP answer names no domain');
  }

  const registrar = objects(json.entities).find((e) => hasRole(e, 'registrar'));
  const abuse = abuseEntity(json, registrar);
  const nameServers = [
    ...new Set(
      objects(json.nameservers)
        .map((ns) => hostName(ns.ldhName))
        .filter((n): n is string => n !== null),
    ),
  ];

  return {
    domainName: hostName(json.ldhName) ?? hostName(json.unicodeName),
    registrar: registrar ? registrarName(registrar) : null,
    creationDate: eventDate(json, 'registration'),
    // "last update" is MarkMonitor's spelling of RFC 9083's "last changed".
    updatedDate: eventDate(json, 'last changed', 'last update'),
    expiryDate: eventDate(json, 'expiration'),
    nameServers,
    abuseEmail: abuse ? vcardEmail(abuse) : null,
    abusePhone: abuse ? vcardPhone(abuse) : null,
    status: strings(json.status),
    redacted: isRedacted(json),
    registrarRdapUrl: relatedRdapUrl(json),
  };
}
