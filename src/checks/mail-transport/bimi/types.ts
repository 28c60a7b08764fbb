/** bimi: its object types (mail-transport.md); the check is ./check.ts. */
import type { BimiResult, BimiSvg } from './bimi.js';
import { builder } from '../../../graphql/builder.js';

export const BimiSvgRef = builder.objectRef<BimiSvg>('BimiSvg').implement({
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
