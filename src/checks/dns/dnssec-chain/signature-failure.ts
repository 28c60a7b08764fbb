/** The code and sentence for an RRset that no signature authenticates, from what its signatures read. */
import type { RrsigData } from '../../../probes/dns/client.js';
import type { ChainError } from './result.js';
import type { SignatureCheck } from './rrsig.js';

/** Most telling first: a signature that was good once says more than one made by an unknown key. */
const ORDER = ['expired', 'not-yet-valid', 'invalid-signature', 'unsupported-algorithm', 'no-matching-key'] as const;

export function signatureFailure(
  what: string,
  signatures: readonly { readonly sig: RrsigData; readonly check: SignatureCheck }[],
): ChainError {
  if (signatures.length === 0) return { code: 'RRSIG_MISSING', message: `no RRSIG covers ${what}` };
  const worst = ORDER.map((status) => signatures.find((s) => s.check.status === status)).find((s) => s !== undefined);
  const tag = worst ? ` (key tag ${worst.sig.keyTag}, algorithm ${worst.sig.algorithm})` : '';
  switch (worst?.check.status) {
    case 'expired':
      return { code: 'RRSIG_EXPIRED', message: `the RRSIG over ${what}${tag} has expired` };
    case 'not-yet-valid':
      return {
        code: 'RRSIG_NOT_YET_VALID',
        message: `the RRSIG over ${what}${tag} is not valid yet (its inception is in the future)`,
      };
    case 'invalid-signature':
      return { code: 'RRSIG_INVALID', message: `the RRSIG over ${what}${tag} does not verify` };
    case 'unsupported-algorithm':
      return {
        code: 'ALGORITHM_UNSUPPORTED',
        message: `the RRSIG over ${what}${tag} uses an algorithm this side cannot verify`,
      };
    default:
      return { code: 'RRSIG_MISSING', message: `no RRSIG over ${what} was made by an authenticated key${tag}` };
  }
}
