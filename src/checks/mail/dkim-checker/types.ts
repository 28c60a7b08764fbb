/**
 * dkim-checker: its object types; the check is ./check.ts.
 */
import type { DkimCheckResult } from './dkim.js';
import { builder } from '../../../graphql/builder.js';
/* -------------------------------------------------------------------- DKIM */

export const DkimCheck = builder.objectRef<DkimCheckResult>('DkimCheck').implement({
  fields: (t) => ({
    domain: t.exposeString('domain'),
    selector: t.exposeString('selector'),
    found: t.exposeBoolean('found', {
      description:
        'A DKIM key record is at `name`: a tag list with p= and, if it has v=, v=DKIM1 first (RFC 6376 §3.6.1). Other TXT records there do not count.',
    }),
    record: t.exposeString('record', { nullable: true }),
    keyType: t.exposeString('keyType', { nullable: true, description: 'k=, "rsa" when absent.' }),
    hasPublicKey: t.exposeBoolean('hasPublicKey', {
      description: 'p= is not empty. An empty p= means the key was revoked (`revoked`).',
    }),
    name: t.exposeString('name', { description: 'The name asked: <selector>._domainkey.<domain>.' }),
    revoked: t.exposeBoolean('revoked'),
    keyBits: t.exposeInt('keyBits', {
      nullable: true,
      description: 'RSA modulus length; null for other key types or a key that does not decode.',
    }),
    testing: t.exposeBoolean('testing', { description: 't=y: the domain is testing DKIM.' }),
    tags: t.field({ type: 'JSON', description: 'Tag name → value, as published.', resolve: (r) => r.tags }),
    errors: t.exposeStringList('errors'),
    warnings: t.exposeStringList('warnings'),
  }),
});
