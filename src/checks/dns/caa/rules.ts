/**
 * caa: what a CAA record set says (RFC 8659), pure. The relevant set is the first one found climbing from
 * the name to its parents (./run.ts); here its properties are read — issue and issuewild (which CAs may
 * issue, §4.2 and §4.3), iodef (where CAs report refused requests, §4.4) — and judged:
 * - a tag that is not 1–15 letters and digits (§4.1.1), an issue or issuewild value outside the grammar
 *   of §4.2, an iodef that is no mailto:, http: or https: URL, is malformed. A malformed issue or
 *   issuewild property names no CA, but still restricts issuance, as a CA reading it does;
 * - a property with the issuer-critical flag (§4.1) whose tag this check does not know: a CA that does
 *   not know it either must not issue, so no CA may (what CAs know beyond RFC 8659: the CA/Browser
 *   Forum's contactemail and contactphone, RFC 9495's issuemail, issuevmc for mark certificates);
 * - no issue property: any CA may issue for the name (§4.2); no issuewild property: issue decides for
 *   wildcard names too (§4.3). Tags compare without case (§4.1.1).
 */

/** A CAA record as the DNS client reads it (probes/dns/types.ts CaaData). */
export interface CaaRecordData {
  readonly flags: number;
  readonly critical: boolean;
  readonly tag: string;
  readonly value: string;
}

export interface CaaProperty extends CaaRecordData {
  /** why the property does not follow RFC 8659 §4; null when it does */
  malformed: string | null;
}

/** A parameter of an issue or issuewild value: `key=value` after the issuer (§4.2). */
export interface CaaParameter {
  key: string;
  value: string;
}

/** One issue or issuewild property, read. */
export interface CaaIssuer {
  /** the CA's domain name (lower case); null when the value names none (";": no CA) or is malformed */
  issuer: string | null;
  parameters: CaaParameter[];
  /** the value as published */
  value: string;
}

/** Which CAs may issue: any (`restricted` false), or those named (none: no CA may). */
export interface CaaAuthorization {
  restricted: boolean;
  issuers: string[];
}

export type CaaFindingCode = 'no-caa' | 'malformed' | 'unknown-critical' | 'no-ca-allowed';
export type CaaSeverity = 'info' | 'warning' | 'critical';

export interface CaaFinding {
  code: CaaFindingCode;
  severity: CaaSeverity;
  message: string;
}

export interface CaaResult {
  /** the name asked about (A-labels, lower case) */
  domain: string;
  /** the name whose CAA record set is the relevant one; null when none was found up to the top-level domain */
  foundAt: string | null;
  /** the CNAME chain followed from `foundAt` to the records (RFC 8659 §3: the resolver follows aliases) */
  aliases: string[];
  /** the names asked, from `domain` up */
  checkedNames: string[];
  /** the relevant record set, as published */
  records: CaaProperty[];
  issue: CaaIssuer[];
  issuewild: CaaIssuer[];
  /** the iodef URLs (well-formed ones) */
  iodef: string[];
  mayIssue: CaaAuthorization;
  mayIssueWildcard: CaaAuthorization;
  findings: CaaFinding[];
}

/** Tags CAs act on or know (RFC 8659, CA/Browser Forum Baseline Requirements, RFC 9495, mark certificates). */
export const KNOWN_TAGS: readonly string[] = [
  'issue',
  'issuewild',
  'iodef',
  'contactemail',
  'contactphone',
  'issuemail',
  'issuevmc',
];

const TAG = /^[A-Za-z0-9]{1,15}$/;
const LABEL = '[A-Za-z0-9](?:-*[A-Za-z0-9])*';
const ISSUER = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);
const PARAMETER = /^([A-Za-z0-9](?:-*[A-Za-z0-9])*)[ \t]*=[ \t]*([\x21-\x3a\x3c-\x7e]*)$/;

/** An issue or issuewild value (§4.2): the issuer and its parameters, or why it does not parse. */
export function parseIssueValue(value: string): { issuer: string | null; parameters: CaaParameter[] } | string {
  const [head = '', ...rest] = value.split(';');
  const issuer = head.trim();
  if (issuer !== '' && !ISSUER.test(issuer)) return `"${issuer}" is not a CA's domain name`;
  const parameters: CaaParameter[] = [];
  for (const part of rest.join(';') === '' ? [] : rest) {
    const text = part.trim();
    if (text === '') continue;
    const m = PARAMETER.exec(text);
    if (!m) return `"${text}" is not a key=value parameter`;
    parameters.push({ key: m[1]!, value: m[2]! });
  }
  return { issuer: issuer === '' ? null : issuer.toLowerCase(), parameters };
}

/** Why an iodef value is not a URL CAs can report to (§4.4: mailto:, http:, https:); null when it is. */
export function iodefProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return `"${value}" is not a URL`;
  }
  return ['mailto:', 'http:', 'https:'].includes(url.protocol)
    ? null
    : `${url.protocol} is not a scheme CAs report to (mailto:, http: or https:)`;
}

function malformation(record: CaaRecordData): string | null {
  if (!TAG.test(record.tag)) return `the tag "${record.tag}" is not 1 to 15 letters and digits`;
  const tag = record.tag.toLowerCase();
  if (tag === 'issue' || tag === 'issuewild') {
    const parsed = parseIssueValue(record.value);
    return typeof parsed === 'string' ? parsed : null;
  }
  if (tag === 'iodef') return iodefProblem(record.value);
  return null;
}

function issuersOf(properties: readonly CaaProperty[], tag: string): CaaIssuer[] {
  return properties
    .filter((p) => p.tag.toLowerCase() === tag)
    .map((p) => {
      const parsed = p.malformed === null ? parseIssueValue(p.value) : null;
      return typeof parsed === 'object' && parsed !== null
        ? { issuer: parsed.issuer, parameters: parsed.parameters, value: p.value }
        : { issuer: null, parameters: [], value: p.value };
    });
}

function authorization(properties: readonly CaaIssuer[]): CaaAuthorization {
  const issuers = [...new Set(properties.flatMap((p) => (p.issuer === null ? [] : [p.issuer])))];
  return { restricted: true, issuers };
}

const ANY_CA: CaaAuthorization = { restricted: false, issuers: [] };
const NO_CA: CaaAuthorization = { restricted: true, issuers: [] };

export function evaluateCaa(input: {
  domain: string;
  foundAt: string | null;
  aliases: string[];
  checkedNames: string[];
  records: readonly CaaRecordData[];
}): CaaResult {
  const { domain, foundAt } = input;
  const records: CaaProperty[] = input.records.map((r) => ({
    flags: r.flags,
    critical: r.critical,
    tag: r.tag,
    value: r.value,
    malformed: malformation(r),
  }));
  const issue = issuersOf(records, 'issue');
  const issuewild = issuersOf(records, 'issuewild');
  const iodef = records.filter((r) => r.tag.toLowerCase() === 'iodef' && r.malformed === null).map((r) => r.value);
  const unknownCritical = records.filter((r) => r.critical && !KNOWN_TAGS.includes(r.tag.toLowerCase()));

  let mayIssue = issue.length === 0 ? ANY_CA : authorization(issue);
  let mayIssueWildcard = issuewild.length > 0 ? authorization(issuewild) : mayIssue;
  if (unknownCritical.length > 0) {
    mayIssue = NO_CA;
    mayIssueWildcard = NO_CA;
  }

  const findings: CaaFinding[] = [];
  if (foundAt === null)
    findings.push({
      code: 'no-caa',
      severity: 'info',
      message: `No CAA record at ${domain} or above it: any CA may issue certificates for it.`,
    });
  for (const r of records)
    if (r.malformed !== null)
      findings.push({
        code: 'malformed',
        severity: 'warning',
        message: `The CAA property ${r.tag} "${r.value}" is malformed: ${r.malformed}${
          ['issue', 'issuewild'].includes(r.tag.toLowerCase()) ? '; it authorizes no CA' : ''
        }.`,
      });
  for (const r of unknownCritical)
    findings.push({
      code: 'unknown-critical',
      severity: 'critical',
      message: `The CAA property ${r.tag} is marked critical and is not one CAs know: every CA must refuse to issue for ${domain}.`,
    });
  if (unknownCritical.length === 0 && mayIssue.restricted && mayIssue.issuers.length === 0)
    findings.push({
      code: 'no-ca-allowed',
      severity: 'info',
      message: `The CAA records at ${foundAt} name no CA: no CA may issue certificates for ${domain}.`,
    });
  return { ...input, records, issue, issuewild, iodef, mayIssue, mayIssueWildcard, findings };
}
