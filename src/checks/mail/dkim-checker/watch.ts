/** dkim-checker (docs/contract/api-v1.md): the key record of a selector and what it says. */
import { arr, bool, num, sortedSet, str } from '../../../watch/projection.js';
import { badWhenTrue, goodWhenTrue } from '../../../watch/common.js';
import { defineWatch } from '../../../watch/watch-spec.js';

export const dkimCheckerWatch = defineWatch({
  tool: 'dkim-checker',
  project(data) {
    return {
      found: bool(data.found),
      record: str(data.record),
      keyType: str(data.keyType),
      hasPublicKey: bool(data.hasPublicKey),
      revoked: bool(data.revoked),
      keyBits: num(data.keyBits),
      testing: bool(data.testing),
      errors: sortedSet(arr(data.errors)),
      warnings: sortedSet(arr(data.warnings)),
    };
  },
  ranked: [
    { pattern: 'found', ranking: goodWhenTrue },
    { pattern: 'hasPublicKey', ranking: goodWhenTrue },
    { pattern: 'revoked', ranking: badWhenTrue },
  ],
  assess(data) {
    const name = `${str(data.selector) ?? '?'}._domainkey.${str(data.domain) ?? '?'}`;
    if (data.found !== true) return { status: 'warning', grade: null, summary: `No DKIM key at ${name}.` };
    if (data.revoked === true || data.hasPublicKey !== true || arr(data.errors).length > 0)
      return { status: 'warning', grade: null, summary: `The DKIM key at ${name} cannot verify signatures.` };
    return {
      status: arr(data.warnings).length > 0 ? 'info' : 'ok',
      grade: null,
      summary: `A usable DKIM key is published at ${name}.`,
    };
  },
});
