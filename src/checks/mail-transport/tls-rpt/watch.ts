/** tls-rpt (docs/contract/mail-transport.md): the record, where reports go, and whether it is valid. */
import { arr, bool, sortedSet, str } from '../../../watch/projection.js';
import { goodWhenTrue } from '../../../watch/common.js';
import { defineWatch } from '../../../watch/watch-spec.js';

export const tlsRptWatch = defineWatch({
  tool: 'tls-rpt',
  project(data) {
    return {
      found: bool(data.found),
      valid: bool(data.valid),
      record: str(data.record),
      rua: sortedSet(arr(data.rua)),
      errors: sortedSet(arr(data.errors)),
    };
  },
  ranked: [
    { pattern: 'found', ranking: goodWhenTrue },
    { pattern: 'valid', ranking: goodWhenTrue },
  ],
  assess(data) {
    const name = str(data.domain) ?? '?';
    if (data.found !== true) return { status: 'info', grade: null, summary: `${name} publishes no TLS-RPT record.` };
    return data.valid === true
      ? {
          status: 'ok',
          grade: null,
          summary: `TLS failures of ${name} are reported to ${sortedSet(arr(data.rua)).join(', ')}.`,
        }
      : { status: 'warning', grade: null, summary: `The TLS-RPT record of ${name} is not valid.` };
  },
});
