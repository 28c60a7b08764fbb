/** dmarc-checker (docs/contract/api-v1.md): the DMARC record and the policies it sets. */
import { arr, bool, sortedSet, str } from '../../../watch/projection.js';
import { levels } from '../../../watch/ranking.js';
import { criticalWhenFalse, goodWhenTrue } from '../../../watch/common.js';
import { defineWatch } from '../../../watch/watch-spec.js';

/** A weaker policy is worse: reject, then quarantine, then none. */
const policyRanking = levels({ reject: 0, quarantine: 1, none: 2 });

export const dmarcCheckerWatch = defineWatch({
  tool: 'dmarc-checker',
  project(data) {
    return {
      found: bool(data.found),
      record: str(data.record),
      policy: str(data.policy),
      effectivePolicy: str(data.effectivePolicy),
      valid: bool(data.valid),
      multiple: bool(data.multiple),
      inherited: bool(data.inherited),
      errors: sortedSet(arr(data.errors)),
      warnings: sortedSet(arr(data.warnings)),
    };
  },
  ranked: [
    { pattern: 'found', ranking: goodWhenTrue },
    { pattern: 'policy', ranking: policyRanking },
    { pattern: 'effectivePolicy', ranking: policyRanking },
    // as mailhealth-check's dmarc part judges: several records, or an invalid one, is critical
    { pattern: 'valid', ranking: criticalWhenFalse },
    { pattern: 'multiple', ranking: levels({ false: 0, true: 1 }, ['true']) },
  ],
  assess(data) {
    const name = str(data.domain) ?? '?';
    const policy = str(data.effectivePolicy) ?? str(data.policy);
    if (data.multiple === true || (data.found === true && data.valid !== true))
      return {
        status: 'critical',
        grade: null,
        summary: `The DMARC record of ${name} is not valid, so no policy applies.`,
      };
    if (data.found !== true) return { status: 'warning', grade: null, summary: `${name} publishes no DMARC policy.` };
    return {
      status: policy === 'none' ? 'info' : 'ok',
      grade: null,
      summary: `The DMARC policy of ${name} is ${policy ?? 'unknown'}.`,
    };
  },
});
