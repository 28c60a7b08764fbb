/**
 * ping (docs/contract/api-v1.md): whether the host answers, and its reverse name. Round-trip times and loss
 * are left out: they differ on every run. A reverse look-up that failed is not known that run.
 */
import { str, UNKNOWN } from '../../../watch/projection.js';
import { levels } from '../../../watch/ranking.js';
import { defineWatch } from '../../../watch/watch-spec.js';

export const pingWatch = defineWatch({
  tool: 'ping',
  project(data) {
    return {
      status: str(data.status),
      ip: str(data.ip),
      reverseDns: data.reverseDnsError === null || data.reverseDnsError === undefined ? str(data.reverseDns) : UNKNOWN,
    };
  },
  ranked: [{ pattern: 'status', ranking: levels({ Online: 0, Offline: 1 }) }],
  assess(data) {
    const host = str(data.host) ?? '?';
    return data.status === 'Online'
      ? { status: 'ok', grade: null, summary: `${host} answers ping.` }
      : { status: 'warning', grade: null, summary: `${host} does not answer ping.` };
  },
});
