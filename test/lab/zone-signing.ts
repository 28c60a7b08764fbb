/**
 * DNSSEC signing of test zones at test time with Debian's ldnsutils (ldns-keygen, ldns-signzone), in
 * a directory the caller owns. Keys are ECDSA P-256 (algorithm 13, RFC 6605): generated in
 * milliseconds, supported by every validator. One key per zone, flagged as a key-signing key
 * (flags 257) and signing everything (a "combined signing key"), which validators accept.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
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

export async function generateKey(dir: string, zone: string): Promise<ZoneKey> {
  const origin = zone.endsWith('.') ? zone : `${zone}.`;
  const { stdout } = await run('ldns-keygen', ['-a', 'ECDSAP256SHA256', '-k', origin], {
    cwd: dir,
    timeout: TOOL_TIMEOUT_MS,
  });
  const name = stdout.trim().split('\n').pop() ?? '';
  if (!name.startsWith('K')) throw new Error(`ldns-keygen printed no key name for ${origin}: ${stdout}`);
  const base = join(dir, name);
  return { base, ds: readFileSync(`${base}.ds`, 'utf8').trim().replace(/\s+/g, ' ') };
}

/** Writes `${zone}.zone` in `dir` from presentation-format lines (after $ORIGIN and $TTL) and returns its path. */
export function writeZoneFile(dir: string, zone: string, lines: readonly string[], ttl = 300): string {
  const origin = zone.endsWith('.') ? zone : `${zone}.`;
  const path = join(dir, `${origin}zone`);
  writeFileSync(path, [`$ORIGIN ${origin}`, `$TTL ${ttl}`, ...lines, ''].join('\n'));
  return path;
}

/** Signs a zone file (NSEC chain included) and returns the signed file's path. */
export async function signZone(zoneFile: string, key: ZoneKey, validity: Validity): Promise<string> {
  const out = `${zoneFile}.signed`;
  await run(
    'ldns-signzone',
    ['-i', String(validity.inception), '-e', String(validity.expiration), '-f', out, zoneFile, key.base],
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
