/**
 * security-txt: the rules (RFC 9116). `parseSecurityTxt` reads a file's text as the ABNF of RFC 9116 §4
 * reads it (fields, comments, the OpenPGP cleartext signature framing of RFC 4880 §7);
 * `evaluateSecurityTxt` says which answer is the file (over https, else over http) and what needs a look.
 * Pure: the fetches are ./run.ts's, the moment is given.
 *
 * Bounds against a hostile file (the body is already capped at SECURITY_TXT_MAX_BYTES): a line longer than
 * MAX_LINE_CHARS is malformed and its text is not kept, at most MAX_VALUES values are kept per field and
 * MAX_VALUES extension fields, at most MAX_MALFORMED_LINES malformed lines are listed (the rest counted).
 */
import { mediaTypeOf, charsetParameter } from '../../../probes/http/content-type.js';

/** The bytes of the file read; a larger file is cut there (a finding). */
export const SECURITY_TXT_MAX_BYTES = 32 * 1024;
/** RFC 9116 §3: the file's place under the well-known URIs (RFC 8615). */
export const SECURITY_TXT_PATH = '/.well-known/security.txt';
const MAX_LINE_CHARS = 2048;
const MAX_VALUES = 32;
const MAX_MALFORMED_LINES = 10;
/** RFC 9116 §2.5.5: "less than a year into the future". */
const EXPIRES_MAX_DAYS = 365;
const DAY_MS = 86_400_000;

export type SecurityTxtSeverity = 'info' | 'warning' | 'critical';

export interface SecurityTxtFinding {
  readonly code:
    | 'missing'
    | 'http-only'
    | 'wrong-content-type'
    | 'too-large'
    | 'no-contact'
    | 'no-expires'
    | 'expired'
    | 'expires-too-far'
    | 'canonical-mismatch'
    | 'malformed';
  readonly severity: SecurityTxtSeverity;
  readonly message: string;
}

/** A field RFC 9116 does not define (an extension field, §2.4): as published. */
export interface SecurityTxtOtherField {
  readonly name: string;
  readonly value: string;
}

export interface SecurityTxtMalformedLine {
  /** 1-based, in the body as served (the signature's framing lines counted) */
  readonly line: number;
  /** the line, at most 100 characters of it */
  readonly text: string;
  readonly reason: string;
}

/** The values of the fields RFC 9116 §2.5 defines (and CSAF, registered by OASIS CSAF 2.0 §7.1.8), in file order. */
export interface SecurityTxtFields {
  readonly contact: string[];
  readonly expires: string | null;
  readonly encryption: string[];
  readonly acknowledgments: string[];
  readonly policy: string[];
  readonly preferredLanguages: string[];
  readonly canonical: string[];
  readonly hiring: string[];
  readonly csaf: string[];
}

export interface ParsedSecurityTxt extends SecurityTxtFields {
  /** the body is framed as an OpenPGP cleartext signed message (RFC 4880 §7); the signature is not verified */
  readonly signed: boolean;
  readonly otherFields: SecurityTxtOtherField[];
  readonly malformedLines: SecurityTxtMalformedLine[];
  /** malformed lines beyond those listed */
  readonly moreMalformedLines: number;
  /** values beyond MAX_VALUES of a field, not kept */
  readonly omittedValues: number;
  /** Expires, Preferred-Languages or a second signature framing where RFC 9116 allows one */
  readonly problems: string[];
}

/** One fetch of the file, as ./run.ts saw it. */
export interface SecurityTxtFetch {
  /** the URL asked */
  readonly url: string;
  /** the URL that answered, after redirects; null when none did */
  readonly finalUrl: string | null;
  /** the final answer's status; null when there was no answer */
  readonly status: number | null;
  readonly contentType: string | null;
  /** the body of a 200 answer (UTF-8), else null */
  readonly body: string | null;
  /** the body was cut at SECURITY_TXT_MAX_BYTES */
  readonly truncated: boolean;
  /** why there was no answer (no address, a refused address, a failed connection or handshake) */
  readonly error: string | null;
}

export interface SecurityTxtEvidence {
  readonly domain: string;
  readonly https: SecurityTxtFetch;
  /** asked only when https gave no file */
  readonly http: SecurityTxtFetch | null;
}

export interface SecurityTxtResult extends SecurityTxtFields {
  readonly domain: string;
  readonly found: boolean;
  /** the URL the file was read from (after redirects); null when not found */
  readonly url: string | null;
  /** the https answer's status; null when https gave no answer */
  readonly httpsStatus: number | null;
  /** why https gave no answer; null when it answered */
  readonly httpsError: string | null;
  readonly contentType: string | null;
  readonly signed: boolean;
  /** Expires as an ISO 8601 instant; null when absent or not a date-time */
  readonly expiresAt: string | null;
  /** whole days from now to Expires (negative: past); null without a valid Expires */
  readonly expiresInDays: number | null;
  readonly otherFields: SecurityTxtOtherField[];
  readonly malformedLines: SecurityTxtMalformedLine[];
  readonly findings: SecurityTxtFinding[];
}

const LIST_FIELDS = {
  contact: 'contact',
  encryption: 'encryption',
  acknowledgments: 'acknowledgments',
  policy: 'policy',
  canonical: 'canonical',
  hiring: 'hiring',
  csaf: 'csaf',
} as const;
type ListField = keyof typeof LIST_FIELDS;

/** RFC 5322 §3.6.8 field-name: printable US-ASCII but ":". */
const FIELD_LINE = /^([\x21-\x39\x3b-\x7e]+):[ \t]*(.*)$/;
/** RFC 3339 §5.6 date-time. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
/** RFC 5646 §2.1 Language-Tag, loosely: alphanumeric subtags of at most 8. */
const LANGUAGE_TAG = /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/;

/** The lines of the signed text (RFC 4880 §7): dash-escaping undone; the framing's own lines are dropped. */
function signedContent(lines: string[]): { content: { n: number; text: string }[]; problem: string | null } {
  const content: { n: number; text: string }[] = [];
  let i = lines.findIndex((l) => l.trim() === '-----BEGIN PGP SIGNED MESSAGE-----') + 1;
  // armor headers ("Hash: SHA256") up to the first empty line
  while (i < lines.length && lines[i]!.trim() !== '') i++;
  i++;
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '-----BEGIN PGP SIGNATURE-----') {
      const ends = lines.slice(i + 1).some((l) => l.trim() === '-----END PGP SIGNATURE-----');
      return { content, problem: ends ? null : 'the signature block has no END PGP SIGNATURE line' };
    }
    content.push({ n: i + 1, text: line.startsWith('- ') ? line.slice(2) : line });
  }
  return { content, problem: 'the signed message has no BEGIN PGP SIGNATURE block' };
}

/** Reads a file's text (RFC 9116 §4): its fields, whether it is signed, and what does not follow the grammar. */
export function parseSecurityTxt(text: string): ParsedSecurityTxt {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const signed = lines.some((l) => l.trim() === '-----BEGIN PGP SIGNED MESSAGE-----');
  const problems: string[] = [];
  let content = lines.map((t, i) => ({ n: i + 1, text: t }));
  if (signed) {
    const read = signedContent(lines);
    content = read.content;
    if (read.problem) problems.push(read.problem);
  }
  const lists: Record<ListField, string[]> = {
    contact: [],
    encryption: [],
    acknowledgments: [],
    policy: [],
    canonical: [],
    hiring: [],
    csaf: [],
  };
  const expires: string[] = [];
  const languages: string[][] = [];
  const otherFields: SecurityTxtOtherField[] = [];
  const malformedLines: SecurityTxtMalformedLine[] = [];
  let moreMalformedLines = 0;
  let omittedValues = 0;
  const malformed = (n: number, line: string, reason: string) => {
    if (malformedLines.length < MAX_MALFORMED_LINES) malformedLines.push({ line: n, text: line.slice(0, 100), reason });
    else moreMalformedLines++;
  };
  const keep = <T>(list: T[], value: T) => {
    if (list.length < MAX_VALUES) list.push(value);
    else omittedValues++;
  };

  for (const { n, text: raw } of content) {
    const line = raw.replace(/[ \t]+$/, '');
    if (line === '' || line.startsWith('#')) continue;
    if (line.length > MAX_LINE_CHARS) {
      malformed(n, line, `the line is longer than ${MAX_LINE_CHARS} characters`);
      continue;
    }
    const field = FIELD_LINE.exec(line);
    if (!field) {
      malformed(n, line, 'not a field ("Name: value") nor a comment');
      continue;
    }
    const name = field[1]!;
    const value = field[2]!.trim();
    const key = name.toLowerCase();
    if (value === '') {
      malformed(n, line, `the ${name} field has no value`);
      continue;
    }
    if (key in LIST_FIELDS || key === 'acknowledgements') {
      const list = lists[key === 'acknowledgements' ? 'acknowledgments' : (key as ListField)];
      const problem = uriProblem(key, value);
      if (problem) malformed(n, line, problem);
      else keep(list, value);
    } else if (key === 'expires') {
      if (DATE_TIME.test(value) && !Number.isNaN(Date.parse(value))) expires.push(value);
      else malformed(n, line, 'Expires is not an RFC 3339 date-time (such as 2027-01-31T23:00:00Z)');
    } else if (key === 'preferred-languages') {
      const tags = value.split(',').map((tag) => tag.trim());
      if (tags.every((tag) => LANGUAGE_TAG.test(tag))) languages.push(tags.slice(0, MAX_VALUES));
      else malformed(n, line, 'Preferred-Languages is not a comma-separated list of language tags (RFC 5646)');
    } else keep(otherFields, { name, value });
  }
  // RFC 9116 §2.5.5 and §2.5.8: each at most once
  if (expires.length > 1) problems.push(`Expires appears ${expires.length} times; it must appear once`);
  if (languages.length > 1) problems.push(`Preferred-Languages appears ${languages.length} times; it may appear once`);
  return {
    signed,
    ...lists,
    expires: expires[0] ?? null,
    preferredLanguages: languages[0] ?? [],
    otherFields,
    malformedLines,
    moreMalformedLines,
    omittedValues,
    problems,
  };
}

/**
 * Why a field's value is not the URI RFC 9116 §2.5 asks for, or null: every one of these fields is a URI,
 * and "if this field indicates a web URI, then it MUST begin with https://".
 */
function uriProblem(key: string, value: string): string | null {
  let uri: URL;
  try {
    uri = new URL(value);
  } catch {
    return `${key} is not a URI`;
  }
  if (uri.protocol === 'http:') return `${key} is a web URI that does not begin with https://`;
  return null;
}

/** The answer that is the file: a 200 that is not an HTML page without a single field (a site's "not found" page). */
function servesFile(fetched: SecurityTxtFetch | null): fetched is SecurityTxtFetch & { body: string } {
  if (fetched === null || fetched.status !== 200 || fetched.body === null) return false;
  if (mediaTypeOf(fetched.contentType) !== 'text/html') return true;
  const parsed = parseSecurityTxt(fetched.body);
  return parsed.contact.length > 0 || parsed.expires !== null;
}

/** Why an answer is missing its file, in words. */
function whyMissing(fetched: SecurityTxtFetch): string {
  if (fetched.error !== null) return fetched.error;
  if (fetched.status === 200) return `${fetched.finalUrl} answered an HTML page, not a security.txt`;
  return `${fetched.finalUrl} answered ${fetched.status}`;
}

const EMPTY_FIELDS: SecurityTxtFields = {
  contact: [],
  expires: null,
  encryption: [],
  acknowledgments: [],
  policy: [],
  preferredLanguages: [],
  canonical: [],
  hiring: [],
  csaf: [],
};

/** Which answer is the file and what it says (`now`: milliseconds since the epoch). */
export function evaluateSecurityTxt(evidence: SecurityTxtEvidence, now: number): SecurityTxtResult {
  const { domain, https, http } = evidence;
  const base = {
    domain,
    httpsStatus: https.status,
    httpsError: https.error,
  };
  const file = servesFile(https) ? https : servesFile(http) ? http : null;
  if (file === null) {
    return {
      ...base,
      ...EMPTY_FIELDS,
      found: false,
      url: null,
      contentType: null,
      signed: false,
      expiresAt: null,
      expiresInDays: null,
      otherFields: [],
      malformedLines: [],
      findings: [
        {
          code: 'missing',
          severity: 'info',
          message: `No security.txt for ${domain}: ${whyMissing(https)}${http ? `, and over http ${whyMissing(http)}` : ''}.`,
        },
      ],
    };
  }
  const parsed = parseSecurityTxt(file.body);
  const url = file.finalUrl ?? file.url;
  const expiresMs = parsed.expires === null ? null : Date.parse(parsed.expires);
  const expiresInDays = expiresMs === null ? null : Math.floor((expiresMs - now) / DAY_MS);
  const findings: SecurityTxtFinding[] = [];
  const add = (code: SecurityTxtFinding['code'], severity: SecurityTxtSeverity, message: string) =>
    findings.push({ code, severity, message });

  if (new URL(url).protocol === 'http:')
    add(
      'http-only',
      'warning',
      `security.txt is served over http only (${url}): RFC 9116 §3 asks for https, so that it cannot be altered on the way.`,
    );
  const type = mediaTypeOf(file.contentType);
  const charset = charsetParameter(file.contentType)?.toLowerCase() ?? null;
  if (type !== 'text/plain' || (charset !== null && charset !== 'utf-8'))
    add(
      'wrong-content-type',
      'warning',
      `security.txt is served as ${file.contentType ?? 'no content type'}; RFC 9116 §3 asks for text/plain; charset=utf-8.`,
    );
  if (file.truncated)
    add(
      'too-large',
      'warning',
      `security.txt is larger than ${SECURITY_TXT_MAX_BYTES / 1024} KiB: only its first ${SECURITY_TXT_MAX_BYTES / 1024} KiB were read.`,
    );
  if (parsed.contact.length === 0)
    add('no-contact', 'critical', 'security.txt has no Contact field: it does not say how to report a vulnerability.');
  if (expiresMs === null)
    add('no-expires', 'warning', 'security.txt has no valid Expires field, which RFC 9116 §2.5.5 requires.');
  else if (expiresMs <= now)
    add(
      'expired',
      'critical',
      `security.txt expired on ${new Date(expiresMs).toISOString()}: researchers should consider it stale (RFC 9116 §2.5.5).`,
    );
  else if (expiresMs - now > EXPIRES_MAX_DAYS * DAY_MS)
    add(
      'expires-too-far',
      'info',
      `security.txt expires in ${expiresInDays} days: RFC 9116 §2.5.5 recommends less than a year, so that it does not go stale.`,
    );
  if (parsed.canonical.length > 0 && !parsed.canonical.some((c) => sameUrl(c, file.url) || sameUrl(c, url)))
    add(
      'canonical-mismatch',
      'warning',
      `None of the Canonical URIs of security.txt is ${file.url}, where it was found (RFC 9116 §2.5.2).`,
    );
  const malformedCount = parsed.malformedLines.length + parsed.moreMalformedLines;
  for (const problem of parsed.problems) add('malformed', 'warning', `In security.txt, ${problem}.`);
  if (malformedCount > 0)
    add(
      'malformed',
      'warning',
      `${malformedCount === 1 ? 'One line of security.txt does' : `${malformedCount} lines of security.txt do`} not follow RFC 9116 §4 (line ${parsed.malformedLines[0]!.line}: ${parsed.malformedLines[0]!.reason}).`,
    );
  if (parsed.omittedValues > 0)
    add(
      'malformed',
      'warning',
      `security.txt repeats fields more than ${MAX_VALUES} times: ${parsed.omittedValues} values were not kept.`,
    );

  const { signed, otherFields, malformedLines } = parsed;
  return {
    ...base,
    found: true,
    url,
    contentType: file.contentType,
    signed,
    contact: parsed.contact,
    expires: parsed.expires,
    expiresAt: expiresMs === null ? null : new Date(expiresMs).toISOString(),
    expiresInDays,
    encryption: parsed.encryption,
    acknowledgments: parsed.acknowledgments,
    policy: parsed.policy,
    preferredLanguages: parsed.preferredLanguages,
    canonical: parsed.canonical,
    hiring: parsed.hiring,
    csaf: parsed.csaf,
    otherFields,
    malformedLines,
    findings,
  };
}

function sameUrl(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return false;
  }
}
