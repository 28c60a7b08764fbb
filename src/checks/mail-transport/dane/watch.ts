/**
 * dane (docs/contract/mail-transport.md): the TLSA records (by their content), whether each matches, their
 * DNSSEC state and the status. The error text is left out (it names the upstream asked).
 */
import { arr, bool, type JsonObject, keyed, num, obj, str } from '../../../watch/projection.js';
import { levels } from '../../../watch/ranking.js';
import { defineWatch } from '../../../watch/watch-spec.js';

/** The watched fields of a DANE answer (mailhealth-check's dane parts carry the same data). */
export function daneProjection(data: JsonObject) {
  return {
    status: str(data.status),
    dnssec: str(data.dnssec),
    tlsa: keyed(
      arr(data.tlsa),
      (t) => [obj(t).usage, obj(t).selector, obj(t).matchingType, obj(t).data].map(String).join(' '),
      (t) => bool(obj(t).matches),
    ),
  };
}

/** As mailhealth-check judges a dane part: a mismatch is critical (DANE senders will not deliver). */
export const daneStatus = levels({ valid: 0, 'no-tlsa': 1, insecure: 1, unusable: 2, error: 2, mismatch: 3 }, [
  'mismatch',
]);

export const daneWatch = defineWatch({
  tool: 'dane',
  project: (data) => ({ ...daneProjection(data), port: num(data.port) }),
  ranked: [
    { pattern: 'status', ranking: daneStatus },
    { pattern: 'dnssec', ranking: levels({ secure: 0, insecure: 1, bogus: 2 }, ['bogus']) },
  ],
  assess(data) {
    const status = str(data.status);
    const host = str(data.host) ?? '?';
    const table = {
      valid: 'ok',
      'no-tlsa': 'info',
      insecure: 'info',
      unusable: 'warning',
      error: 'warning',
      mismatch: 'critical',
    } as const;
    return {
      status: status !== null && Object.hasOwn(table, status) ? table[status as keyof typeof table] : 'warning',
      grade: null,
      summary: `DANE of ${host}: ${status ?? 'unknown'}.`,
    };
  },
});
