/**
 * dnssec-test (docs/contract/api-v1.md): the status as the validating resolver sees it. The key count is
 * left out: it changes during every key rollover.
 */
import { bool, str } from '../../../watch/projection.js';
import { levels } from '../../../watch/ranking.js';
import { defineWatch } from '../../../watch/watch-spec.js';

export const dnssecTestWatch = defineWatch({
  tool: 'dnssec-test',
  project(data) {
    return {
      status: str(data.status),
      validated: bool(data.validated),
      dsPresent: bool(data.dsPresent),
      authenticated: bool(data.authenticated),
      rcode: str(data.rcode),
    };
  },
  ranked: [{ pattern: 'status', ranking: levels({ enabled: 0, disabled: 1, insecure: 1, bogus: 2 }, ['bogus']) }],
  assess(data) {
    const status = str(data.status);
    const name = str(data.domain) ?? '?';
    const table = { enabled: 'ok', disabled: 'info', insecure: 'warning', bogus: 'critical' } as const;
    return {
      status: status !== null && Object.hasOwn(table, status) ? table[status as keyof typeof table] : 'warning',
      grade: null,
      summary: `DNSSEC of ${name} is ${status ?? 'unknown'}.`,
    };
  },
});
