/**
 * Conformance to Mozilla's server-side TLS guidelines 5.7 (data/mozilla-tls-guidelines-5.7.json, as the
 * ssl-config-generator project publishes them), by the rules of docs/contract/grades.md `mozilla`: a profile is
 * satisfied when no rule of it is violated, and the result names the strictest satisfied profile. Pure:
 * the guidelines are passed in (mozilla-guidelines.ts reads the bundled file).
 */
import type { RatedVersion } from './cipher-suites.js';

export const MOZILLA_PROFILES = ['modern', 'intermediate', 'old'] as const;
export type MozillaProfileName = (typeof MOZILLA_PROFILES)[number];

/** The fields of one configuration of the guidelines that the rules read. */
export interface MozillaConfiguration {
  readonly certificate_curves: readonly string[];
  readonly certificate_signatures: readonly string[];
  readonly certificate_types: readonly string[];
  readonly ciphers: { readonly iana: readonly string[] };
  readonly ciphersuites: readonly string[];
  readonly dh_param_size: number | null;
  readonly maximum_certificate_lifespan: number;
  readonly rsa_key_size: number | null;
  readonly tls_curves: readonly string[];
  readonly tls_versions: readonly string[];
}

export interface MozillaGuidelines {
  readonly version: number;
  readonly configurations: Readonly<Record<MozillaProfileName, MozillaConfiguration>>;
}

export interface MozillaFacts {
  readonly supportedVersions: readonly RatedVersion[];
  readonly suites: readonly { readonly version: RatedVersion; readonly name: string; readonly keyExchange: string }[];
  readonly groups: readonly string[];
  /** the smallest DH group of an accepted DHE suite; null when none */
  readonly dhBits: number | null;
  /** null when no handshake completed: every profile is then violated */
  readonly certificate: {
    /** RSA, EC, Ed25519, … */
    readonly keyType: string;
    readonly keyBits: number;
    /** OpenSSL's curve name of an EC key (prime256v1, secp384r1), else null */
    readonly curve: string | null;
    readonly signatureAlgorithm: string;
    /** notAfter − notBefore, in days */
    readonly lifespanDays: number;
    /** ssl-checker's status after AIA completion */
    readonly status: string;
  } | null;
}

export interface MozillaConformance {
  profile: MozillaProfileName | 'none';
  violations: Record<MozillaProfileName, string[]>;
}

/** Our group names → the guidelines' `tls_curves` names (grades.md: x25519 = X25519, secp256r1 = prime256v1). */
const CURVE_NAMES: Readonly<Record<string, string>> = {
  x25519: 'X25519',
  x448: 'X448',
  secp256r1: 'prime256v1',
};

/** Our certificate key types → the guidelines' `certificate_types`. */
const CERTIFICATE_TYPES: Readonly<Record<string, string>> = { RSA: 'rsa', EC: 'ecdsa' };

function violationsOf(profile: MozillaConfiguration, facts: MozillaFacts): string[] {
  const violations: string[] = [];
  for (const version of facts.supportedVersions) {
    if (!profile.tls_versions.includes(version)) violations.push(`${version} supported`);
  }
  const seen = new Set<string>();
  for (const suite of facts.suites) {
    if (seen.has(suite.name)) continue;
    seen.add(suite.name);
    const allowed = suite.version === 'TLSv1.3' ? profile.ciphersuites : profile.ciphers.iana;
    if (!allowed.includes(suite.name)) violations.push(`${suite.name} accepted`);
  }
  for (const group of facts.groups) {
    if (!profile.tls_curves.includes(CURVE_NAMES[group] ?? group)) violations.push(`group ${group} accepted`);
  }
  if (facts.suites.some((s) => s.keyExchange === 'DHE')) {
    if (profile.dh_param_size === null) violations.push('DHE suites accepted');
    else if (facts.dhBits !== null && facts.dhBits < profile.dh_param_size)
      violations.push(`DH group of ${facts.dhBits} bits (under ${profile.dh_param_size})`);
  }
  const certificate = facts.certificate;
  if (certificate === null) {
    violations.push('no certificate could be read');
    return violations;
  }
  const type = CERTIFICATE_TYPES[certificate.keyType];
  if (type === undefined || !profile.certificate_types.includes(type))
    violations.push(`certificate key type ${certificate.keyType}`);
  if (certificate.keyType === 'RSA' && profile.rsa_key_size !== null && certificate.keyBits < profile.rsa_key_size)
    violations.push(`RSA key of ${certificate.keyBits} bits (under ${profile.rsa_key_size})`);
  if (certificate.keyType === 'EC' && !profile.certificate_curves.includes(certificate.curve ?? ''))
    violations.push(`certificate curve ${certificate.curve ?? 'unknown'}`);
  if (!profile.certificate_signatures.includes(certificate.signatureAlgorithm))
    violations.push(`certificate signature ${certificate.signatureAlgorithm}`);
  if (certificate.lifespanDays > profile.maximum_certificate_lifespan)
    violations.push(
      `certificate lifespan of ${certificate.lifespanDays} days (over ${profile.maximum_certificate_lifespan})`,
    );
  if (certificate.status !== 'valid') violations.push(`certificate ${certificate.status}`);
  return violations;
}

export function mozillaConformance(guidelines: MozillaGuidelines, facts: MozillaFacts): MozillaConformance {
  const violations = {
    modern: violationsOf(guidelines.configurations.modern, facts),
    intermediate: violationsOf(guidelines.configurations.intermediate, facts),
    old: violationsOf(guidelines.configurations.old, facts),
  };
  const profile = MOZILLA_PROFILES.find((name) => violations[name].length === 0) ?? 'none';
  return { profile, violations };
}
