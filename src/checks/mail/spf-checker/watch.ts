/**
 * spf-checker (docs/contract/api-v1.md): the record, its evaluation and the lookups it takes. The include
 * tree's records are left out: they are other domains' records (a mail provider's), which change on their
 * own; what they do to this domain's evaluation and lookup count is watched.
 */
import { arr, bool, num, sortedSet, str } from '../../../watch/projection.js';
import { levels } from '../../../watch/ranking.js';
import { defineWatch } from '../../../watch/watch-spec.js';

export const spfCheckerWatch = defineWatch({
  tool: 'spf-checker',
  project(data) {
    return {
      found: bool(data.found),
      record: str(data.record),
      multiple: bool(data.multiple),
      evaluation: str(data.evaluation),
      lookupCount: num(data.lookupCount),
      voidLookupCount: num(data.voidLookupCount),
      errors: sortedSet(arr(data.errors)),
      warnings: sortedSet(arr(data.warnings)),
    };
  },
  // as mailhealth-check's spf part judges: no record or a permerror is critical, a temperror a warning
  ranked: [
    { pattern: 'evaluation', ranking: levels({ ok: 0, temperror: 1, none: 2, permerror: 2 }, ['none', 'permerror']) },
  ],
  assess(data) {
    const name = str(data.domain) ?? '?';
    const evaluation = str(data.evaluation);
    if (data.found !== true || evaluation === 'none')
      return { status: 'critical', grade: null, summary: `${name} publishes no SPF record.` };
    if (evaluation === 'permerror')
      return { status: 'critical', grade: null, summary: `The SPF record of ${name} fails (permerror).` };
    if (evaluation === 'temperror')
      return {
        status: 'warning',
        grade: null,
        summary: `The SPF record of ${name} could not be evaluated (temperror).`,
      };
    return {
      status: arr(data.warnings).length > 0 ? 'info' : 'ok',
      grade: null,
      summary: `The SPF record of ${name} is valid, using ${num(data.lookupCount) ?? '?'} of ${num(data.lookupLimit) ?? 10} DNS lookups.`,
    };
  },
});
