/** bimi (docs/contract/mail-transport.md): the record, the logo's location and checks, and the status. */
import { arr, bool, num, objOrNull, sortedSet, str } from '../../../watch/projection.js';
import { levels } from '../../../watch/ranking.js';
import { defineWatch } from '../../../watch/watch-spec.js';

export const bimiWatch = defineWatch({
  tool: 'bimi',
  project(data) {
    const svg = objOrNull(data.svg);
    return {
      found: bool(data.found),
      status: str(data.status),
      record: str(data.record),
      location: str(data.location),
      authority: str(data.authority),
      dmarcEligible: bool(data.dmarcEligible),
      svg: svg && { status: num(svg.status), tinyPs: bool(svg.tinyPs), errors: sortedSet(arr(svg.errors)) },
      errors: sortedSet(arr(data.errors)),
    };
  },
  ranked: [{ pattern: 'status', ranking: levels({ valid: 0, 'not-configured': 1, invalid: 2 }) }],
  assess(data) {
    const status = str(data.status);
    const name = str(data.domain) ?? '?';
    if (status === 'valid') return { status: 'ok', grade: null, summary: `${name} publishes a valid BIMI logo.` };
    if (status === 'invalid')
      return { status: 'warning', grade: null, summary: `The BIMI record of ${name} is not usable.` };
    return { status: 'info', grade: null, summary: `${name} publishes no BIMI logo.` };
  },
});
