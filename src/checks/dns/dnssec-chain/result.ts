/** The shapes of a dnssec-chain result (docs/contract/dnssec-chain.md: its field names and codes are the contract). */
import type { DsStatus } from './ds-digest.js';
import type { SignatureStatus } from './rrsig.js';

export type ChainStatus = 'secure' | 'insecure' | 'bogus' | 'indeterminate';

/** The one fixed list of error codes (docs/contract/dnssec-chain.md). */
export type ChainErrorCode =
  | 'DS_DIGEST_MISMATCH'
  | 'DS_NO_MATCHING_DNSKEY'
  | 'NO_TRUSTED_DNSKEY'
  | 'DNSKEY_MISSING'
  | 'RRSIG_MISSING'
  | 'RRSIG_EXPIRED'
  | 'RRSIG_NOT_YET_VALID'
  | 'RRSIG_INVALID'
  | 'ALGORITHM_UNSUPPORTED'
  | 'ALGORITHM_PROHIBITED'
  | 'DIGEST_PROHIBITED'
  | 'DENIAL_MISSING'
  | 'DENIAL_INVALID'
  | 'INSECURE_DELEGATION_UNPROVEN'
  | 'SERVER_FAILURE';

export type ChainWarningCode =
  | 'RRSIG_EXPIRES_SOON'
  | 'ALGORITHM_DEPRECATED'
  | 'DIGEST_SHA1'
  | 'NSEC3_ITERATIONS'
  | 'REVOKED_KEY_IN_USE';

export const CHAIN_ERROR_CODES: readonly ChainErrorCode[] = [
  'DS_DIGEST_MISMATCH',
  'DS_NO_MATCHING_DNSKEY',
  'NO_TRUSTED_DNSKEY',
  'DNSKEY_MISSING',
  'RRSIG_MISSING',
  'RRSIG_EXPIRED',
  'RRSIG_NOT_YET_VALID',
  'RRSIG_INVALID',
  'ALGORITHM_UNSUPPORTED',
  'ALGORITHM_PROHIBITED',
  'DIGEST_PROHIBITED',
  'DENIAL_MISSING',
  'DENIAL_INVALID',
  'INSECURE_DELEGATION_UNPROVEN',
  'SERVER_FAILURE',
];

export const CHAIN_WARNING_CODES: readonly ChainWarningCode[] = [
  'RRSIG_EXPIRES_SOON',
  'ALGORITHM_DEPRECATED',
  'DIGEST_SHA1',
  'NSEC3_ITERATIONS',
  'REVOKED_KEY_IN_USE',
];

export interface Finding<Code extends string> {
  readonly code: Code;
  readonly message: string;
}

export type ChainError = Finding<ChainErrorCode>;
export type ChainWarning = Finding<ChainWarningCode>;

export interface DsEntry {
  readonly keyTag: number;
  readonly algorithm: number;
  readonly digestType: number;
  readonly digest: string;
  readonly status: DsStatus;
}

export type DnskeyStatus = 'trusted' | 'signed-by-trusted' | 'unused';

export interface DnskeyEntry {
  readonly keyTag: number;
  readonly algorithm: number;
  readonly flags: number;
  readonly sep: boolean;
  readonly revoked: boolean;
  /** RSA modulus bits, or the curve size (256, 384, 255, 448); null for an algorithm not verified here */
  readonly bits: number | null;
  readonly status: DnskeyStatus;
}

export interface SignatureEntry {
  readonly keyTag: number;
  readonly algorithm: number;
  /** ISO 8601 UTC */
  readonly inception: string;
  readonly expiration: string;
  readonly status: SignatureStatus;
}

export interface ChainLink {
  readonly zone: string;
  readonly status: ChainStatus;
  readonly ds: readonly DsEntry[];
  readonly dnskeys: readonly DnskeyEntry[];
  readonly dnskeySignatures: readonly SignatureEntry[];
  readonly errors: readonly ChainError[];
  readonly warnings: readonly ChainWarning[];
}

export interface AnswerSignature extends SignatureEntry {
  readonly signer: string;
}

export interface DenialEntry {
  readonly kind: 'nsec' | 'nsec3';
  readonly status: 'valid' | 'invalid' | 'missing';
  /** NSEC3 only */
  readonly iterations: number | null;
  readonly optOut: boolean | null;
}

export interface ChainAnswer {
  readonly name: string;
  readonly type: string;
  readonly rcode: 'NOERROR' | 'NXDOMAIN' | null;
  /** presentation format */
  readonly records: readonly string[];
  readonly signatures: readonly AnswerSignature[];
  readonly status: ChainStatus;
  readonly denial: DenialEntry | null;
}

export interface BrokenLink {
  readonly zone: string;
  readonly code: ChainErrorCode;
  readonly message: string;
}

export interface VerificationSummary {
  readonly signaturesVerified: number;
  readonly cpuMs: number;
}

export interface DnssecChainResult {
  readonly domain: string;
  readonly type: string;
  readonly status: ChainStatus;
  readonly brokenLink: BrokenLink | null;
  readonly chain: readonly ChainLink[];
  readonly answer: ChainAnswer;
  /** `resolver` or `authoritative` (config dnssec.source) */
  readonly source: 'resolver' | 'authoritative';
  readonly questions: number;
  readonly verification: VerificationSummary;
}
