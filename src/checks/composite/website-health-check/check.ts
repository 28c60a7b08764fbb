/** The website-health-check check: the Query field websiteHealthCheck and GET /api/v1/website-health-check. */
import { runWebsiteHealth } from './run.js';
import { parseDomainOrUrl } from '../../../validation.js';
import { defineCheck } from '../../../graphql/check-declaration.js';
import { WebsiteHealthCheckRef } from './types.js';

defineCheck({
  field: 'websiteHealthCheck',
  tool: 'website-health-check',
  family: 'Composite',
  composite: true,
  type: WebsiteHealthCheckRef,
  description:
    'DNS, location, organization, ping, latency, HTTP, redirects, SSL/TLS, security headers, protocol, compression, web ports, TLS rating and HTTP security rating of a site in one request, with a verdict (REST: website-health-check; a composite check: 30 s bound). ' +
    "The parts run concurrently and share the single checks' questions (one fetch, one handshake, one TLS rating): in one GraphQL operation with tlsRating or httpRating of the same site, the site is rated once. The ratings' details are tls-rating's and http-rating's data. A part that fails is that check's error; a refused target is a 400.",
  args: (arg) => ({ target: arg.string({ required: true, description: 'A domain, or an http(s) URL.' }) }),
  rest: { target: 'required' },
  parse: (args: { target: string }) => {
    const { hostname, url } = parseDomainOrUrl('target', args.target);
    return { hostname: hostname.replace(/\.$/, ''), url };
  },
  // not runWebsiteHealth itself: its third parameter is its options, not the request context
  run: (checks, target) => runWebsiteHealth(checks, target),
});
