/**
 * RFC 8624 (algorithm implementation requirements) and RFC 9276 (NSEC3 parameters) as the contract's
 * errors and warnings.
 */
import type { ChainError, ChainWarning } from './result.js';

/** RFC 8624 §3.1: MUST NOT sign or validate with RSAMD5 (1), DSA (3), DSA-NSEC3-SHA1 (6), ECC-GOST (12). */
const PROHIBITED_ALGORITHMS = new Set([1, 3, 6, 12]);
/** RFC 8624 §3.1: NOT RECOMMENDED for signing: RSASHA1 (5), RSASHA1-NSEC3-SHA1 (7), RSASHA512 (10). */
const DEPRECATED_ALGORITHMS = new Set([5, 7, 10]);
/** RFC 8624 §3.3: MUST NOT use digest type 0 (reserved) nor GOST R 34.11-94 (3). */
const PROHIBITED_DIGESTS = new Set([0, 3]);
const SHA1_DIGEST = 1;
const STRONGER_DIGESTS = new Set([2, 4]);

/** A zone's errors and warnings of one rule. */
export interface Findings {
  readonly errors: ChainError[];
  readonly warnings: ChainWarning[];
}

/** The distinct values among `values` that `listed` holds, in increasing order: one finding each. */
function listedIn(values: readonly number[], listed: ReadonlySet<number>): number[] {
  return [...new Set(values)].filter((v) => listed.has(v)).sort((a, b) => a - b);
}

export function algorithmFindings(zone: string, algorithms: readonly number[]): Findings {
  const errors: ChainError[] = listedIn(algorithms, PROHIBITED_ALGORITHMS).map((a) => ({
    code: 'ALGORITHM_PROHIBITED',
    message: `${zone} uses algorithm ${a}, which RFC 8624 says MUST NOT be used`,
  }));
  const warnings: ChainWarning[] = listedIn(algorithms, DEPRECATED_ALGORITHMS).map((a) => ({
    code: 'ALGORITHM_DEPRECATED',
    message: `${zone} uses algorithm ${a}, NOT RECOMMENDED for signing by RFC 8624`,
  }));
  return { errors, warnings };
}

export function digestFindings(zone: string, digestTypes: readonly number[]): Findings {
  const errors: ChainError[] = listedIn(digestTypes, PROHIBITED_DIGESTS).map((d) => ({
    code: 'DIGEST_PROHIBITED',
    message: `a DS record of ${zone} uses digest type ${d}, which RFC 8624 says MUST NOT be used`,
  }));
  const warnings: ChainWarning[] =
    digestTypes.includes(SHA1_DIGEST) && !digestTypes.some((d) => STRONGER_DIGESTS.has(d))
      ? [
          {
            code: 'DIGEST_SHA1',
            message: `the DS records of ${zone} use SHA-1 (digest type 1) with no SHA-256 or SHA-384 beside it (RFC 8624 §3.3)`,
          },
        ]
      : [];
  return { errors, warnings };
}

/** RFC 9276 §3.1: zones SHOULD use 0 extra iterations; validators may treat high counts as insecure. */
export function nsec3IterationWarning(zone: string, iterations: number): ChainWarning | null {
  return iterations > 0
    ? {
        code: 'NSEC3_ITERATIONS',
        message: `the NSEC3 records of ${zone} use ${iterations} extra iterations; RFC 9276 asks for 0`,
      }
    : null;
}

/** The contract's horizon for RRSIG_EXPIRES_SOON. */
export const EXPIRES_SOON_SECONDS = 7 * 86400;
