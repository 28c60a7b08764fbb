/** The website-health-check check: the Query field websiteHealthCheck and GET /api/v1/website-health-check. */
import { runWebsiteHealth } from './run.js';
import { parseDomainOrUrl } from '../../../validation.js';
import { defineCheck } from '../../../graphql/check-declaration.js';
import { WebsiteHealthCheckRef } from './types.js';
import { websiteParts } from './parts.js';
import { listInProse } from '../shared/verdict.js';
import { websiteHealthWatch } from './watch.js';

/** The composite's own parts, in words (its joined parts add their labels). */
const OWN_PARTS = [
  'DNS',
  'location',
  'organization',
  'ping',
  'latency',
  'HTTP',
  'redirects',
  'SSL/TLS',
  'security headers',
  'protocol',
  'compression',
  'web ports',
];

defineCheck({
  field: 'websiteHealthCheck',
  tool: 'website-health-check',
  watch: websiteHealthWatch,
  family: 'Composite',
  composite: true,
  type: WebsiteHealthCheckRef,
  // written once every part has joined (the schema reads it then): it names them
  get description() {
    const parts = websiteParts.joined;
    const names = [...OWN_PARTS, ...parts.map((p) => p.spec.named ?? p.spec.label)];
    const notes = parts.flatMap((p) => (p.spec.note === undefined ? [] : [`${p.spec.note} `])).join('');
    return (
      `${names.slice(0, -1).join(', ')} and ${names.at(-1)} of a site in one request, with a verdict (REST: website-health-check; a composite check: 30 s bound). ` +
      "The parts run concurrently and share the single checks' questions (one fetch, one handshake). " +
      notes +
      `The details of ${listInProse(parts.map((p) => p.check.tool))} have those checks' fields. A part that fails is that check's error; a refused target is a 400.`
    );
  },
  args: (arg) => ({ target: arg.string({ required: true, description: 'A domain, or an http(s) URL.' }) }),
  rest: { target: 'required' },
  parse: (args: { target: string }) => {
    const { hostname, url } = parseDomainOrUrl('target', args.target);
    return { hostname: hostname.replace(/\.$/, ''), url };
  },
  // not runWebsiteHealth itself: its third parameter is its options, not the request context
  run: (checks, target) => runWebsiteHealth(checks, target),
  // REST answers a joined part's data as its details (./parts.ts)
  flatten: () => websiteParts.flattenMarks(),
});
