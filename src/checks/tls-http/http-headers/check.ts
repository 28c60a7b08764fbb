/** The http-headers check: the Query field httpHeaders and GET /api/v1/http-headers. */
import { runHttpHeaders } from './run.js';
import { parseUrl } from '../../../validation.js';
import { defineCheck } from '../../../graphql/check-declaration.js';
import { HttpHeaders } from './types.js';
import { httpHeadersWatch } from './watch.js';

defineCheck({
  field: 'httpHeaders',
  tool: 'http-headers',
  watch: httpHeadersWatch,
  family: 'TLS/HTTP',
  type: HttpHeaders,
  description:
    'Fetches a URL with GET, following redirects by hand, and reports the final status, the redirect chain, every response header and security-header coverage (REST: http-headers). The body is not read. Private and internal addresses are refused, for the URL and for every redirect target.',
  args: (arg) => ({ url: arg.string({ required: true, description: 'A full http or https URL.' }) }),
  rest: { url: 'required' },
  parse: (args: { url: string }) => parseUrl('url', args.url),
  run: runHttpHeaders,
});
