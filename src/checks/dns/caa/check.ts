/**
 * The caa check (RFC 8659): the Query field caa, GET /api/v1/caa, and its part of website-health-check.
 * The rules are ./rules.ts, the questions ./run.ts.
 */
import { builder } from '../../../graphql/builder.js';
import { defineCheck } from '../../../graphql/check-declaration.js';
import { parseHostname } from '../../../validation.js';
import type { Finding } from '../../composite/shared/finding.js';
import { listInProse, type HealthCheckStatus } from '../../composite/shared/verdict.js';
import { websiteParts } from '../../composite/website-health-check/parts.js';
import type { CaaAuthorization, CaaFinding, CaaIssuer, CaaParameter, CaaProperty, CaaResult } from './rules.js';
import { runCaa } from './run.js';
import { findingSet, findingSeverity, findingsStatus } from '../../../watch/common.js';
import { arr, obj, sortedSet, str } from '../../../watch/projection.js';
import { defineWatch } from '../../../watch/watch-spec.js';

const CaaPropertyRef = builder.objectRef<CaaProperty>('CaaProperty').implement({
  description: 'One CAA record of the relevant set, as published (RFC 8659 §4.1).',
  fields: (t) => ({
    flags: t.exposeInt('flags', { description: 'The flags octet.' }),
    critical: t.exposeBoolean('critical', {
      description: 'The issuer-critical flag (128): a CA that does not know the tag must not issue.',
    }),
    tag: t.exposeString('tag', { description: 'The property tag: issue, issuewild, iodef, …' }),
    value: t.exposeString('value', { description: 'The property value.' }),
    malformed: t.exposeString('malformed', {
      nullable: true,
      description:
        'Why the property does not follow RFC 8659 §4 (its tag, or the syntax of its value); null when it does.',
    }),
  }),
});

const CaaParameterRef = builder.objectRef<CaaParameter>('CaaParameter').implement({
  description:
    'A parameter after the issuer of an issue or issuewild value (RFC 8659 §4.2), such as validationmethods=dns-01.',
  fields: (t) => ({ key: t.exposeString('key'), value: t.exposeString('value') }),
});

const CaaIssuerRef = builder.objectRef<CaaIssuer>('CaaIssuer').implement({
  description: 'One issue or issuewild property, read.',
  fields: (t) => ({
    issuer: t.exposeString('issuer', {
      nullable: true,
      description:
        'The CA named, by its domain (lower case); null when the value names none (";": no CA) or is malformed.',
    }),
    parameters: t.field({ type: [CaaParameterRef], resolve: (i) => i.parameters }),
    value: t.exposeString('value', { description: 'The value as published.' }),
  }),
});

const CaaAuthorizationRef = builder.objectRef<CaaAuthorization>('CaaAuthorization').implement({
  description: 'Which CAs may issue: any (restricted false), or only those named (none named: no CA may).',
  fields: (t) => ({
    restricted: t.exposeBoolean('restricted', { description: 'CAA restricts issuance; false: any CA may issue.' }),
    issuers: t.exposeStringList('issuers', {
      description: 'The CAs that may issue, by their domain, when restricted.',
    }),
  }),
});

const CaaFindingRef = builder.objectRef<CaaFinding>('CaaFinding').implement({
  description:
    'What the record set says that needs a look. code: no-caa (info: no CAA record up to the top-level domain, any CA may issue), malformed (warning: a tag or value outside RFC 8659 §4; a malformed issue or issuewild authorizes no CA), unknown-critical (critical: a critical property CAs do not know, so no CA may issue), no-ca-allowed (info: the issue properties name no CA).',
  fields: (t) => ({
    code: t.exposeString('code'),
    severity: t.exposeString('severity', { description: 'info, warning or critical.' }),
    message: t.exposeString('message', { description: 'One sentence saying what was found.' }),
  }),
});

const Caa = builder.objectRef<CaaResult>('Caa').implement({
  description: "A name's CAA record set as certificate authorities find it (RFC 8659), and what it allows.",
  fields: (t) => ({
    domain: t.exposeString('domain', { description: 'The name asked about (lower-case A-labels).' }),
    foundAt: t.exposeString('foundAt', {
      nullable: true,
      description:
        'The name holding the relevant record set: the name itself or the nearest parent with CAA records; null when none has any.',
    }),
    aliases: t.exposeStringList('aliases', { description: 'The CNAME chain followed from foundAt to the records.' }),
    checkedNames: t.exposeStringList('checkedNames', {
      description: 'The names asked, from the name up to foundAt (or the top-level domain).',
    }),
    records: t.field({ type: [CaaPropertyRef], resolve: (r) => r.records }),
    issue: t.field({
      type: [CaaIssuerRef],
      description: 'The issue properties: who may issue for the name.',
      resolve: (r) => r.issue,
    }),
    issuewild: t.field({
      type: [CaaIssuerRef],
      description:
        'The issuewild properties: who may issue for wildcard names (*.name); when there is none, issue decides.',
      resolve: (r) => r.issuewild,
    }),
    iodef: t.exposeStringList('iodef', {
      description: 'Where CAs report requests they refused (mailto:, http: or https: URLs).',
    }),
    mayIssue: t.field({
      type: CaaAuthorizationRef,
      description: 'Who may issue certificates for the name.',
      resolve: (r) => r.mayIssue,
    }),
    mayIssueWildcard: t.field({
      type: CaaAuthorizationRef,
      description: 'Who may issue certificates for *.name.',
      resolve: (r) => r.mayIssueWildcard,
    }),
    findings: t.field({ type: [CaaFindingRef], resolve: (r) => r.findings }),
  }),
});

/** The part's status: the worst finding's; a site whose name no CA may certify cannot renew its certificate. */
export function caaFinding(data: CaaResult): Finding<CaaResult> {
  const worst = (codes: string[]) => data.findings.some((f) => codes.includes(f.code));
  const finding = (status: HealthCheckStatus, summary: string) => ({ status, summary, details: data });
  if (worst(['unknown-critical']))
    return finding(
      'critical',
      `${data.findings.find((f) => f.code === 'unknown-critical')!.message} Remove the property or clear its critical flag.`,
    );
  if (worst(['malformed']))
    return finding('warning', `${data.findings.find((f) => f.code === 'malformed')!.message} Fix the record.`);
  if (worst(['no-ca-allowed']))
    return finding(
      'warning',
      `The CAA records at ${data.foundAt} let no CA issue certificates for ${data.domain}: its certificate cannot be renewed; name your CA in an issue property.`,
    );
  if (data.foundAt === null)
    return finding(
      'info',
      `No CAA record: any CA may issue certificates for ${data.domain}; publish CAA records naming the CAs you use.`,
    );
  return finding(
    'ok',
    `Only ${listInProse(data.mayIssue.issuers)} may issue certificates for ${data.domain} (CAA at ${data.foundAt}).`,
  );
}

defineCheck({
  field: 'caa',
  tool: 'caa',
  family: 'DNS',
  type: Caa,
  description:
    'The CAA record set of a name as certificate authorities find it, climbing to its parents until one has CAA records and following CNAMEs (RFC 8659), with its issue, issuewild and iodef properties, which CAs may issue for the name and for wildcards, and findings (REST: caa). Asked of the system resolver; a question that fails below the set found is a 502/504.',
  args: (arg) => ({
    domain: arg.string({ required: true, description: 'The name certificates would be issued for.' }),
  }),
  rest: { domain: 'required' },
  parse: (args: { domain: string }) => parseHostname('domain', args.domain),
  run: runCaa,
  // monitors: who may issue, where reports go, and each finding by code (docs/contract/monitors.md "Events")
  watch: defineWatch({
    tool: 'caa',
    project: (data) => ({
      foundAt: str(data.foundAt),
      mayIssue: sortedSet(arr(obj(data.mayIssue).issuers)),
      mayIssueWildcard: sortedSet(arr(obj(data.mayIssueWildcard).issuers)),
      restricted: obj(data.mayIssue).restricted === true,
      iodef: sortedSet(arr(data.iodef)),
      findings: findingSet(data.findings),
    }),
    ranked: [{ pattern: 'findings[*]', ranking: findingSeverity }],
    assess: (data) => {
      const issuers = arr(obj(data.mayIssue).issuers).map((i) => str(i) ?? '');
      const domain = str(data.domain) ?? 'the name';
      return {
        status: findingsStatus(data.findings),
        grade: null,
        summary:
          obj(data.mayIssue).restricted !== true
            ? `Any CA may issue certificates for ${domain}.`
            : issuers.length === 0
              ? `No CA may issue certificates for ${domain}.`
              : `Only ${issuers.join(', ')} may issue certificates for ${domain}.`,
      };
    },
  }),
  partOf: [
    websiteParts.part({
      id: 'caa',
      label: 'CAA',
      order: 150,
      description:
        "caa — the CAA record set of the site's name: critical: a critical property CAs do not know (no CA may issue); warning: a malformed property, or records that name no CA (the certificate cannot be renewed); info: no CAA record (any CA may issue); ok: the CAs named.",
      fieldDescription: "caa's data for the site's name; null when the check could not run.",
      run: async (site) => caaFinding(await runCaa(site.checks, site.hostname)),
    }),
  ],
});
