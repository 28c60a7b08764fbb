/** The open-graph-checker check: the Query field openGraphChecker and GET /api/v1/open-graph-checker. */
import { runOpenGraphChecker } from './run.js';
import { parseUrl } from '../../../validation.js';
import { defineCheck } from '../../../graphql/check-declaration.js';
import { OpenGraphChecker } from './types.js';
import { openGraphWatch } from './watch.js';

defineCheck({
  field: 'openGraphChecker',
  tool: 'open-graph-checker',
  watch: openGraphWatch,
  family: 'TLS/HTTP',
  type: OpenGraphChecker,
  description:
    'Fetches a URL as httpHeaders does and reads the head of its HTML document (at most http.maxBodyBytes, stopping at </head>) for the title, Open Graph and Twitter Card tags (REST: open-graph-checker). The encoding comes from a byte order mark, the Content-Type charset, or <meta charset>, else UTF-8.',
  args: (arg) => ({ url: arg.string({ required: true, description: 'A full http or https URL.' }) }),
  rest: { url: 'required' },
  parse: (args: { url: string }) => parseUrl('url', args.url),
  run: runOpenGraphChecker,
});
