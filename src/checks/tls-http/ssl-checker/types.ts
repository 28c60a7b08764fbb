/**
 * ssl-checker: its object types; the check is ./check.ts.
 */
import type { SslCheckerResult } from './run.js';
import { builder } from '../../../graphql/builder.js';
import { leafIdentityFields, SSL_STATUS_RULES, SslChainEntry } from '../shared/tls-types.js';

export const SslChecker = builder.objectRef<SslCheckerResult>('SslChecker').implement({
  fields: (t) => ({
    domain: t.exposeString('domain'),
    status: t.exposeString('status', { description: SSL_STATUS_RULES }),
    ...leafIdentityFields(t),
    signatureAlgorithm: t.exposeString('signatureAlgorithm', {
      description: 'The algorithm the issuer signed the leaf with, e.g. "sha256WithRSAEncryption".',
    }),
    chain: t.field({ type: [SslChainEntry], description: 'Leaf first.', resolve: (r) => r.chain }),
    ip: t.exposeString('ip', {
      description: 'The address connected to: the first IPv4 address of the domain, else its first IPv6 address.',
    }),
    port: t.exposeInt('port', {
      description: 'The port connected to (443 unless the GraphQL port argument says otherwise).',
    }),
  }),
});
