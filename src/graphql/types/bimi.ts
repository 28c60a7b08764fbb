/** bimi: object types and the query field (mail-transport.md). */
import type { BimiResult, BimiSvg } from '../../checks/mail/bimi.js';
import { bimiName } from '../../checks/mail/bimi.js';
import { runBimiCheck } from '../../checks/mail/bimi-run.js';
import { InputError } from '../../errors.js';
import { parseHostname, parseSelector } from '../../validation.js';
import { builder } from '../builder.js';
import { defineCheck } from '../checks.js';

const BimiSvgRef = builder.objectRef<BimiSvg>('BimiSvg').implement({
  description: 'The logo at l=, as fetched (through the target guard, no redirects, at most 32 KiB).',
  fields: (t) => ({
    status: t.exposeInt('status', { description: 'HTTP status.' }),
    contentType: t.exposeString('contentType', { description: 'As served; image/svg+xml expected.' }),
    bytes: t.exposeInt('bytes', { description: 'Bytes read (at most 32 KiB).' }),
    tinyPs: t.exposeBoolean('tinyPs', {
      description:
        'The file declares baseProfile="tiny-ps" (version 1.2, a <title>) and has no script, no external reference and no animation.',
    }),
    errors: t.exposeStringList('errors'),
  }),
});

export const Bimi = builder.objectRef<BimiResult>('Bimi').implement({
  description: 'Brand Indicators for Message Identification: the record, the logo, and DMARC eligibility.',
  fields: (t) => ({
    domain: t.exposeString('domain'),
    selector: t.exposeString('selector'),
    found: t.exposeBoolean('found', {
      description: 'A v=BIMI1 record applies (at the domain, or its organisational domain).',
    }),
    record: t.exposeString('record', { description: 'The record that applies; "" when none.' }),
    queriedName: t.exposeString('queriedName', { description: 'The name whose record applies, or was asked last.' }),
    location: t.exposeString('location', { description: 'l=, the logo URL; "" when none.' }),
    authority: t.exposeString('authority', {
      description: 'a=, the Verified Mark Certificate URL; "" when none (not validated here).',
    }),
    svg: t.field({
      type: BimiSvgRef,
      nullable: true,
      description: 'Null when no logo was fetched.',
      resolve: (r) => r.svg,
    }),
    dmarcEligible: t.exposeBoolean('dmarcEligible', {
      description: 'DMARC policy quarantine or reject with pct 100, at the domain or its organisational domain.',
    }),
    status: t.exposeString('status', {
      description:
        '"not-configured" (no record, or one declining BIMI with empty l= and a=), "invalid" (a bad record, a logo that cannot be fetched or breaks the SVG Tiny PS profile, or DMARC not enforced; errors say which), "valid".',
    }),
    errors: t.exposeStringList('errors'),
  }),
});

builder.queryField('bimi', (t) =>
  t.field({
    nullable: true,
    type: Bimi,
    description:
      'The BIMI record of a domain (REST: bimi): <selector>._bimi.<domain> (falling back to the organisational domain), the SVG logo fetched through the target guard and checked against the SVG Tiny PS profile, and whether the DMARC policy makes the domain eligible.',
    args: {
      domain: t.arg.string({ required: true }),
      selector: t.arg.string({ description: 'The BIMI selector; default "default".' }),
    },
    resolve: defineCheck({
      field: 'bimi',
      tool: 'bimi',
      parse: (args: { domain: string; selector?: string | null }) => {
        const domain = parseHostname('domain', args.domain);
        const selector =
          args.selector == null || args.selector === '' ? 'default' : parseSelector('selector', args.selector);
        if (bimiName(selector, domain).length > 253)
          throw new InputError(
            'domain',
            `domain: ${bimiName(selector, domain)} would be longer than the 253 characters a DNS name may have`,
          );
        return { domain, selector };
      },
      run: (input, checks) => runBimiCheck(checks, input.domain, input.selector),
    }),
  }),
);
