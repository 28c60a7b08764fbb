/**
 * API keys (decisions §10). Two kinds:
 * - static keys from `auth.keys` (operator-chosen strings), always valid unless revoked;
 * - issued keys `nd_<id><mac>`: a random 128-bit id and an HMAC-SHA256 tag over it with `auth.secret`,
 *   so any instance that shares the secret verifies them without a database, and they survive restarts.
 * Revocation lists whole keys (`auth.revoked`). Only the key *id* (never the key) leaves this module for logs.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const PREFIX = 'nd_';
const ID_BYTES = 16; // 22 base64url characters
const MAC_BYTES = 18; // 24 base64url characters; 144-bit tag
const ISSUED_KEY = /^nd_([A-Za-z0-9_-]{22})([A-Za-z0-9_-]{24})$/;

export interface KeyIdentity {
  /** safe to log: the issued key's id, or a hash prefix of a static key */
  readonly id: string;
  readonly kind: 'static' | 'issued';
}

export interface Keyring {
  verify(key: string): KeyIdentity | null;
  issue(): { key: string; identity: KeyIdentity };
}

export function createKeyring(options: {
  staticKeys: readonly string[];
  secret: string;
  revoked: readonly string[];
}): Keyring {
  // Keys are looked up by their SHA-256 digest, never compared as strings: the time a lookup takes
  // then depends on the digest of what was sent, which says nothing about any key's characters.
  const digest = (key: string) => createHash('sha256').update(key).digest('base64url');
  const revoked = new Set(options.revoked.map(digest));
  const staticKeys = new Map<string, KeyIdentity>(
    options.staticKeys.map((k) => [digest(k), { id: `s_${digest(k).slice(0, 12)}`, kind: 'static' }]),
  );
  const mac = (id: string) =>
    createHmac('sha256', options.secret).update(`netdiag-key-v1:${id}`).digest().subarray(0, MAC_BYTES);

  return {
    verify(key) {
      const given = digest(key);
      if (revoked.has(given)) return null;
      const s = staticKeys.get(given);
      if (s) return s;
      const m = ISSUED_KEY.exec(key);
      if (!m) return null;
      const tag = Buffer.from(m[2]!, 'base64url');
      if (tag.length !== MAC_BYTES || !timingSafeEqual(tag, mac(m[1]!))) return null;
      return { id: `k_${m[1]}`, kind: 'issued' };
    },
    issue() {
      const id = randomBytes(ID_BYTES).toString('base64url');
      const key = `${PREFIX}${id}${mac(id).toString('base64url')}`;
      return { key, identity: { id: `k_${id}`, kind: 'issued' } };
    },
  };
}

/**
 * The configured secret, or one generated once into `<dataDir>/secret` and reused after restarts.
 * The file is created with mode 0600 and `wx` so two instances starting together keep one secret.
 */
export function loadOrCreateSecret(configured: string | null, dataDir: string): string {
  if (configured) return configured;
  const file = join(dataDir, 'secret');
  const read = () => readFileSync(file, 'utf8').trim();
  try {
    return read();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  try {
    writeFileSync(file, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  return read();
}
