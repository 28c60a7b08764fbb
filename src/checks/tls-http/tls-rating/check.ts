/** The tls-rating check (docs/contract/grades.md): the Query field tlsRating and GET /api/v1/tls-rating. */
import { runTlsRating } from './run.js';
import { parseTlsTarget } from '../shared/tls-target.js';
import { defineCheck } from '../../../graphql/check-declaration.js';
import { websiteHealthPart } from './website-part.js';
import { TlsRating } from './types.js';
import { tlsRatingWatch } from './watch.js';

defineCheck({
  field: 'tlsRating',
  tool: 'tls-rating',
  watch: tlsRatingWatch,
  family: 'TLS/HTTP',
  price: 10,
  // grades.md: the rating may take 30 s, more than an ordinary request's bound (decisions §8)
  composite: true,
  type: TlsRating,
  description:
    "A graded TLS configuration (REST: tls-rating): every version and every cipher suite the server accepts (each suite of a family the server takes offered on its own; SSLv3 and the suites this side's TLS library lacks by hand-built ClientHellos), its groups, DH sizes, certificate key and chain, preference and HSTS, graded by the SSL Labs method (caps and warnings named) and judged against Mozilla's guidelines 5.7. `domain` is a hostname or an https URL (an explicit port is the port rated). At most tls.ratingHandshakes connections, tls.ratingConcurrency at once, 30 s (then `partial`). Private and internal addresses are refused.",
  args: (arg) => ({
    domain: arg.string({ required: true }),
    port: arg.int({
      description: "TCP port, 1–65535; default the URL's port, else 443. Must agree with a port given in the URL.",
    }),
  }),
  rest: { domain: 'required' },
  parse: parseTlsTarget,
  run: runTlsRating,
  partOf: [websiteHealthPart],
});
