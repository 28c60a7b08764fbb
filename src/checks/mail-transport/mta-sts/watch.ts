/**
 * mta-sts (docs/contract/mail-transport.md): the policy's status and mode, its MX patterns and how the MX
 * hosts match them, the policy id (a new id is a new policy), and the problems found.
 */
import { arr, bool, keyed, num, obj, objOrNull, sortedSet, str } from '../../../watch/projection.js';
import { levels } from '../../../watch/ranking.js';
import { defineWatch } from '../../../watch/watch-spec.js';

export const mtaStsWatch = defineWatch({
  tool: 'mta-sts',
  project(data) {
    const policy = objOrNull(data.policy);
    return {
      found: bool(data.found),
      status: str(data.status),
      id: str(data.id),
      policy: policy && {
        mode: str(policy.mode),
        mx: sortedSet(arr(policy.mx)),
        maxAge: num(policy.maxAge),
      },
      mxMatches: keyed(
        arr(data.mxMatches),
        (m) => str(obj(m).exchange),
        (m) => bool(obj(m).matches),
      ),
      errors: sortedSet(arr(data.errors)),
      warnings: sortedSet(arr(data.warnings)),
    };
  },
  // enforce is the point of a policy; testing, none or no policy is weaker; an unusable one is a warning
  ranked: [
    { pattern: 'status', ranking: levels({ enforce: 0, testing: 1, none: 1, 'not-configured': 1, invalid: 2 }) },
  ],
  assess(data) {
    const status = str(data.status);
    const name = str(data.domain) ?? '?';
    if (status === 'enforce')
      return { status: 'ok', grade: null, summary: `The MTA-STS policy of ${name} is enforced.` };
    if (status === 'invalid')
      return { status: 'warning', grade: null, summary: `The MTA-STS policy of ${name} cannot be used.` };
    return { status: 'info', grade: null, summary: `MTA-STS of ${name}: ${status ?? 'unknown'}.` };
  },
});
