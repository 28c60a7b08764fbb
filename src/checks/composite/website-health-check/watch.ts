/**
 * website-health-check (docs/contract/api-v1.md, docs/contract/grades.md "website-health-check"): each
 * part's status (docs/contract/monitors.md "Events"), keyed by the part's id, and the letters of its two
 * rating parts (a letter can fall within one status band). Its certificate's expiry is tls-rating's and
 * ssl-checker's to announce: the `web` preset runs tls-rating beside it, and one expiry is one event.
 */
import { keyed, obj, str } from '../../../watch/projection.js';
import { letterGrade, partStatus } from '../../../watch/ranking.js';
import { fromDetails, partsOf, verdictAssessment } from '../../../watch/common.js';
import { defineWatch } from '../../../watch/watch-spec.js';

export const websiteHealthWatch = defineWatch({
  tool: 'website-health-check',
  project(data) {
    const parts = partsOf(data);
    const part = (id: string) => parts.find((p) => p.id === id);
    return {
      parts: keyed(
        parts,
        (p) => p.id,
        (p) => p.status,
      ),
      tlsRating: part('tls-rating') ? fromDetails(part('tls-rating'), (d) => str(obj(d.grade).letter)) : null,
      httpRating: part('http-rating') ? fromDetails(part('http-rating'), (d) => str(d.grade)) : null,
    };
  },
  ranked: [
    { pattern: 'parts[*]', ranking: partStatus },
    { pattern: 'tlsRating', ranking: letterGrade },
    { pattern: 'httpRating', ranking: letterGrade },
  ],
  assess: (data) => verdictAssessment(data, `The site ${str(data.domain) ?? '?'} was checked.`),
});
