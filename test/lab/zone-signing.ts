/**
 * DNSSEC signing of test zones at test time with Debian's ldnsutils (ldns-keygen, ldns-signzone), in
 * a directory the caller owns. Keys are ECDSA P-256 (algorithm 13, RFC 6605): generated in
 * milliseconds, supported by every validator. One key per zone, flagged as a key-signing key
 * (flags 257) and signing everything (a "combined signing key"), which validators accept.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const TOOL_TIMEOUT_MS = 10_000;

export interface ZoneKey {
  /** the key files' path without extension (ldns's "base name") */
  base: string;
  /** the DS record of the key in presentation format, e.g. "secure.lab. IN DS 21416 13 2 E249…" */
  ds: string;
}

/** Signature validity in seconds since the epoch (RFC 4034 §3.1.5). */
export interface Validity {
  inception: number;
  expiration: number;
}

/** A validity window around now: valid from an hour ago for a week. */
export function currentValidity(nowSeconds = Math.floor(Date.now() / 1000)): Validity {
  return { inception: nowSeconds - 3600, expiration: nowSeconds + 7 * 86400 };
}

/**
 * A window that ended `daysAgo` days ago. Validators allow clock skew of up to 10 % of the window
 * (unbound: val-sig-skew-max, one day), so the window ends well before that margin.
 */
export function expiredValidity(daysAgo = 10, nowSeconds = Math.floor(Date.now() / 1000)): Validity {
  return { inception: nowSeconds - (daysAgo + 20) * 86400, expiration: nowSeconds - daysAgo * 86400 };
}

export interface KeyOptions {
  /** ldns-keygen's algorithm name; default ECDSAP256SHA256 */
  readonly algorithm?: string;
  /** a key-signing key (flags 257, the default) or a zone-signing key (256) */
  readonly ksk?: boolean;
}

export async function generateKey(dir: string, zone: string, options: KeyOptions = {}): Promise<ZoneKey> {
  const origin = zone.endsWith('.') ? zone : `${zone}.`;
  const algorithm = options.algorithm ?? 'ECDSAP256SHA256';
  const rsa = algorithm.startsWith('RSA') ? ['-b', '1024'] : [];
  const role = options.ksk === false ? [] : ['-k'];
  const { stdout } = await run('ldns-keygen', ['-a', algorithm, ...rsa, ...role, origin], {
    cwd: dir,
    timeout: TOOL_TIMEOUT_MS,
  });
  const name = stdout.trim().split('\n').pop() ?? '';
  if (!name.startsWith('K')) throw new Error(`ldns-keygen printed no key name for ${origin}: ${stdout}`);
  const base = join(dir, name);
  // ldns-keygen writes a DS file for key-signing keys only
  const ds = existsSync(`${base}.ds`) ? readFileSync(`${base}.ds`, 'utf8').trim().replace(/\s+/g, ' ') : '';
  return { base, ds };
}

/** Writes `${zone}.zone` in `dir` from presentation-format lines (after $ORIGIN and $TTL) and returns its path. */
export function writeZoneFile(dir: string, zone: string, lines: readonly string[], ttl = 300): string {
  const origin = zone.endsWith('.') ? zone : `${zone}.`;
  const path = join(dir, `${origin}zone`);
  writeFileSync(path, [`$ORIGIN ${origin}`, `$TTL ${ttl}`, ...lines, ''].join('\n'));
  return path;
}

/** NSEC3 instead of NSEC (RFC 5155): extra iterations, salt (hex, '' for none), Opt-Out. */
export interface Nsec3Options {
  readonly iterations: number;
  readonly salt?: string;
  readonly optOut?: boolean;
}

/** Signs a zone file (NSEC chain included, or NSEC3 with `nsec3`) with one key or several and returns the signed file's path. */
export async function signZone(
  zoneFile: string,
  key: ZoneKey | readonly ZoneKey[],
  validity: Validity,
  nsec3?: Nsec3Options,
): Promise<string> {
  const out = `${zoneFile}.signed`;
  const keys = Array.isArray(key) ? key : [key as ZoneKey];
  const denial = nsec3
    ? ['-n', '-t', String(nsec3.iterations), ...(nsec3.salt ? ['-s', nsec3.salt] : []), ...(nsec3.optOut ? ['-p'] : [])]
    : [];
  await run(
    'ldns-signzone',
    [
      ...denial,
      '-i',
      String(validity.inception),
      '-e',
      String(validity.expiration),
      '-f',
      out,
      zoneFile,
      ...keys.map((k) => k.base),
    ],
    {
      timeout: TOOL_TIMEOUT_MS,
    },
  );
  return out;
}

/**
 * Damages the signature of the RRSIG covering `typeCovered` at `owner` in a signed zone file (one
 * base64 character changed), so that the RRset no longer validates.
 */
export function corruptSignature(signedFile: string, owner: string, typeCovered: string): void {
  const origin = owner.endsWith('.') ? owner : `${owner}.`;
  let changed = 0;
  const lines = readFileSync(signedFile, 'utf8')
    .split('\n')
    .map((line) => {
      const fields = line.split(/\s+/);
      if (fields[0] !== origin || fields[3] !== 'RRSIG' || fields[4] !== typeCovered) return line;
      changed += 1;
      const signature = fields[fields.length - 1] ?? '';
      const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);
      return `${fields.slice(0, -1).join('\t')}\t${flipped}`;
    });
  if (changed === 0) throw new Error(`no RRSIG ${typeCovered} at ${origin} in ${signedFile}`);
  writeFileSync(signedFile, lines.join('\n'));
}

/** The DS record of `key` with SHA-1 (digest type 1), in presentation format. */
export async function sha1Ds(key: ZoneKey): Promise<string> {
  const { stdout } = await run('ldns-key2ds', ['-n', '-1', `${key.base}.key`], { timeout: TOOL_TIMEOUT_MS });
  return stdout.trim().replace(/\s+/g, ' ');
}

/** Sets the REVOKE flag (RFC 5011 §2.1) of a key in its files: its tag changes with it. */
export async function revokeKey(key: ZoneKey): Promise<void> {
  await run('ldns-revoke', [`${key.base}.key`], { timeout: TOOL_TIMEOUT_MS });
}

/** Removes from a signed zone file the records of `type` at `owner`, and the RRSIGs covering them. */
export function removeRecords(signedFile: string, owner: string, type: string): void {
  const origin = owner.endsWith('.') ? owner : `${owner}.`;
  let removed = 0;
  const lines = readFileSync(signedFile, 'utf8')
    .split('\n')
    .filter((line) => {
      const fields = line.split(/\s+/);
      const drop = fields[0] === origin && (fields[3] === type || (fields[3] === 'RRSIG' && fields[4] === type));
      if (drop) removed += 1;
      return !drop;
    });
  if (removed === 0) throw new Error(`no ${type} at ${origin} in ${signedFile}`);
  writeFileSync(signedFile, lines.join('\n'));
}

/** Removes from a signed zone file the RRSIGs at `owner` covering `typeCovered`, leaving the RRset unsigned. */
export function removeSignatures(signedFile: string, owner: string, typeCovered: string): void {
  const origin = owner.endsWith('.') ? owner : `${owner}.`;
  const before = readFileSync(signedFile, 'utf8').split('\n');
  const lines = before.filter((line) => {
    const fields = line.split(/\s+/);
    return !(fields[0] === origin && fields[3] === 'RRSIG' && fields[4] === typeCovered);
  });
  if (lines.length === before.length) throw new Error(`no RRSIG ${typeCovered} at ${origin} in ${signedFile}`);
  writeFileSync(signedFile, lines.join('\n'));
}
