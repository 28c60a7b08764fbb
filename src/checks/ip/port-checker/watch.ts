/** port-checker (docs/contract/api-v1.md): whether the port accepts connections. The timing is left out. */
import { num, str } from '../../../watch/projection.js';
import { levels } from '../../../watch/ranking.js';
import { defineWatch } from '../../../watch/watch-spec.js';

export const portCheckerWatch = defineWatch({
  tool: 'port-checker',
  project(data) {
    return { status: str(data.status), ip: str(data.ip), port: num(data.port) };
  },
  ranked: [{ pattern: 'status', ranking: levels({ open: 0, closed: 1, filtered: 1 }) }],
  assess(data) {
    const where = `${str(data.host) ?? '?'} port ${num(data.port) ?? '?'}`;
    return data.status === 'open'
      ? { status: 'ok', grade: null, summary: `${where} is open.` }
      : { status: 'warning', grade: null, summary: `${where} is ${str(data.status) ?? 'unknown'}.` };
  },
});
