/**
 * The security-txt check (RFC 9116): the Query field securityTxt, GET /api/v1/security-txt, and its part of
 * website-health-check. The rules are ./rules.ts, the fetches ./run.ts.
 */
import { builder } from '../../../graphql/builder.js';
import { defineCheck } from '../../../graphql/check-declaration.js';
import { parseHostname } from '../../../validation.js';
import type { Finding } from '../../composite/shared/finding.js';
import type { HealthCheckStatus } from '../../composite/shared/verdict.js';
import { websiteParts } from '../../composite/website-health-check/parts.js';
import type {
  SecurityTxtFinding,
  SecurityTxtMalformedLine,
  SecurityTxtOtherField,
  SecurityTxtResult,
} from './rules.js';
import { runSecurityTxt } from './run.js';
import { findingSet, findingSeverity, findingsStatus, goodWhenTrue } from '../../../watch/common.js';
import { arr, sortedSet, str } from '../../../watch/projection.js';
import { defineWatch } from '../../../watch/watch-spec.js';

const OtherFieldRef = builder.objectRef<SecurityTxtOtherField>('SecurityTxtOtherField').implement({
  description: 'A field RFC 9116 does not define (an extension field, RFC 9116 §2.4), as published.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The field name as written.' }),
    value: t.exposeString('value'),
  }),
});

const MalformedLineRef = builder.objectRef<SecurityTxtMalformedLine>('SecurityTxtMalformedLine').implement({
  description: 'A line that does not follow the grammar of RFC 9116 §4 (at most ten are listed).',
  fields: (t) => ({
    line: t.exposeInt('line', { description: 'Its number in the file as served, from 1.' }),
    text: t.exposeString('text', { description: 'The line, at most 100 characters of it.' }),
    reason: t.exposeString('reason', { description: 'What is wrong with it.' }),
  }),
});

const FindingRef = builder.objectRef<SecurityTxtFinding>('SecurityTxtFinding').implement({
  description:
    'What the file (or its absence) says that needs a look. code: missing (info: no security.txt over https nor http), http-only (warning: served over http only), wrong-content-type (warning: not text/plain; charset=utf-8), too-large (warning: larger than 32 KiB, cut), no-contact (critical: no Contact field), no-expires (warning: no valid Expires field), expired (critical: Expires has passed), expires-too-far (info: Expires more than a year ahead), canonical-mismatch (warning: Canonical URIs that do not name where the file was found), malformed (warning: lines or fields outside RFC 9116 §4, or a broken signature framing).',
  fields: (t) => ({
    code: t.exposeString('code'),
    severity: t.exposeString('severity', { description: 'info, warning or critical.' }),
    message: t.exposeString('message', { description: 'One sentence saying what was found.' }),
  }),
});

const SecurityTxt = builder.objectRef<SecurityTxtResult>('SecurityTxt').implement({
  description: "A site's security.txt (RFC 9116): where it was found, its fields, whether it is signed, and findings.",
  fields: (t) => ({
    domain: t.exposeString('domain', { description: 'The name asked about (lower-case A-labels).' }),
    found: t.exposeBoolean('found', { description: 'A security.txt was served, over https or http.' }),
    url: t.exposeString('url', {
      nullable: true,
      description: 'The URL the file was read from, after redirects; null when none was found.',
    }),
    httpsStatus: t.exposeInt('httpsStatus', {
      nullable: true,
      description: 'The status of the https answer at /.well-known/security.txt; null when https gave no answer.',
    }),
    httpsError: t.exposeString('httpsError', {
      nullable: true,
      description:
        'Why https gave no answer (no address, a refused address, a failed connection); null when it answered.',
    }),
    contentType: t.exposeString('contentType', {
      nullable: true,
      description: "The file's Content-Type as served; null when not found or sent without one.",
    }),
    signed: t.exposeBoolean('signed', {
      description:
        'The file is an OpenPGP cleartext signed message (RFC 4880 §7): its framing is read, the signature is not verified.',
    }),
    contact: t.exposeStringList('contact', {
      description: 'Contact: where to report a vulnerability (URIs, in the order of preference).',
    }),
    expires: t.exposeString('expires', {
      nullable: true,
      description: 'Expires as published (an RFC 3339 date-time); null when absent or not a date-time.',
    }),
    expiresAt: t.exposeString('expiresAt', {
      nullable: true,
      description: 'Expires as an ISO 8601 instant in UTC; null when absent or invalid.',
    }),
    expiresInDays: t.exposeInt('expiresInDays', {
      nullable: true,
      description: 'Whole days from now until Expires (negative once passed); null without a valid Expires.',
    }),
    encryption: t.exposeStringList('encryption', { description: 'Encryption: where the key to encrypt reports is.' }),
    acknowledgments: t.exposeStringList('acknowledgments', {
      description: 'Acknowledgments: where researchers are thanked.',
    }),
    policy: t.exposeStringList('policy', { description: 'Policy: the disclosure policy.' }),
    preferredLanguages: t.exposeStringList('preferredLanguages', {
      description: 'Preferred-Languages: the language tags reports are best written in.',
    }),
    canonical: t.exposeStringList('canonical', { description: 'Canonical: the URIs where the file is meant to be.' }),
    hiring: t.exposeStringList('hiring', { description: 'Hiring: security jobs.' }),
    csaf: t.exposeStringList('csaf', {
      description: 'CSAF: the provider metadata of the Common Security Advisory Framework (OASIS CSAF 2.0).',
    }),
    otherFields: t.field({ type: [OtherFieldRef], resolve: (r) => r.otherFields }),
    malformedLines: t.field({ type: [MalformedLineRef], resolve: (r) => r.malformedLines }),
    findings: t.field({ type: [FindingRef], resolve: (r) => r.findings }),
  }),
});

/** The part's status: the worst finding's (a missing file is info: RFC 9116 is a recommendation). */
export function securityTxtFinding(data: SecurityTxtResult): Finding<SecurityTxtResult> {
  const rank: Record<string, HealthCheckStatus> = { critical: 'critical', warning: 'warning', info: 'info' };
  const worst =
    data.findings.find((f) => f.severity === 'critical') ??
    data.findings.find((f) => f.severity === 'warning') ??
    data.findings.find((f) => f.severity === 'info');
  if (worst === undefined)
    return {
      status: 'ok',
      summary: `${data.url} says how to report a vulnerability (${data.contact[0]}).`,
      details: data,
    };
  return { status: rank[worst.severity]!, summary: worst.message, details: data };
}

defineCheck({
  field: 'securityTxt',
  tool: 'security-txt',
  family: 'TLS/HTTP',
  type: SecurityTxt,
  description:
    "A site's security.txt (RFC 9116) at /.well-known/security.txt over https (over http when https has none, redirects followed), its fields (Contact, Expires, Encryption, Acknowledgments, Policy, Preferred-Languages, Canonical, Hiring, CSAF and others), whether it is signed, and findings (REST: security-txt). Every address asked is checked by the target guard; the file is read up to 32 KiB.",
  args: (arg) => ({
    domain: arg.string({ required: true, description: 'The host name whose security.txt is read.' }),
  }),
  rest: { domain: 'required' },
  parse: (args: { domain: string }) => parseHostname('domain', args.domain),
  run: runSecurityTxt,
  price: 3,
  // monitors: where the file is, how to reach the site's security team, its end, and each finding by code
  watch: defineWatch({
    tool: 'security-txt',
    project: (data) => ({
      found: data.found === true,
      url: str(data.url),
      signed: data.signed === true,
      // in the file's order: the first is the preferred contact (RFC 9116 §2.5.3)
      contact: arr(data.contact).map((c) => str(c) ?? ''),
      expiresAt: str(data.expiresAt),
      encryption: sortedSet(arr(data.encryption)),
      policy: sortedSet(arr(data.policy)),
      canonical: sortedSet(arr(data.canonical)),
      findings: findingSet(data.findings),
    }),
    ranked: [
      { pattern: 'found', ranking: goodWhenTrue },
      { pattern: 'findings[*]', ranking: findingSeverity },
    ],
    assess: (data) => {
      const domain = str(data.domain) ?? 'the site';
      const contact = str(arr(data.contact)[0]);
      return {
        status: findingsStatus(data.findings),
        grade: null,
        summary:
          data.found !== true
            ? `${domain} has no security.txt.`
            : contact === null
              ? `The security.txt of ${domain} names no contact.`
              : `The security.txt of ${domain} names ${contact} as its contact.`,
      };
    },
  }),
  partOf: [
    websiteParts.part({
      id: 'security-txt',
      label: 'security.txt',
      order: 160,
      description:
        "security-txt — the site's security.txt (RFC 9116): critical: no Contact, or expired; warning: served over http only, a wrong content type, no Expires, a Canonical that does not name it, malformed lines; info: missing, or Expires more than a year ahead; ok: a current file with a Contact.",
      fieldDescription: "security-txt's data for the site's name; null when the check could not run.",
      run: async (site) => securityTxtFinding(await runSecurityTxt(site.checks, site.hostname)),
    }),
  ],
});
