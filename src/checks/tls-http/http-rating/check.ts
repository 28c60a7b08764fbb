/** The http-rating check: the Query field httpRating and GET /api/v1/http-rating (grades.md). */
import { runHttpRating } from './run.js';
import { parseDomainOrUrl } from '../../../validation.js';
import { defineCheck } from '../../../graphql/check-declaration.js';
import { websiteHealthPart } from './website-part.js';
import { HttpRating } from './types.js';
import { httpRatingWatch } from './watch.js';

defineCheck({
  field: 'httpRating',
  tool: 'http-rating',
  watch: httpRatingWatch,
  family: 'TLS/HTTP',
  price: 5,
  type: HttpRating,
  description:
    "The MDN HTTP Observatory's grade (A+ … F) of a site's HTTP security (REST: http-rating). " +
    'Its ten tests as npm @mdn/mdn-http-observatory 1.4.8 runs them (algorithm version 4: the same test and result names, score modifiers and grade chart) over the first response of https://host/, the http://host/ redirect chain, a CORS preflight and the HTML document, fetched concurrently through the target guard. ' +
    'An answer other than 2xx, 3xx, 401 or 403 is not graded (grade null, error says why).',
  args: (arg) => ({
    url: arg.string({ required: true, description: 'A domain (https://<domain>/ is rated), or an http(s) URL.' }),
  }),
  rest: { url: 'required' },
  parse: (args: { url: string }) => {
    const { hostname, url } = parseDomainOrUrl('url', args.url);
    return { hostname: hostname.replace(/\.$/, ''), url };
  },
  run: runHttpRating,
  partOf: [websiteHealthPart],
});
