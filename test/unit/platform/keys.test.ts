import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createKeyring, loadOrCreateSecret } from '../../../src/platform/keys.js';

const secret = 's'.repeat(32);

describe('keyring', () => {
  it('verifies keys it issued, and only with the same secret', () => {
    const a = createKeyring({ staticKeys: [], secret, revoked: [] });
    const { key, identity } = a.issue();
    expect(key).toMatch(/^nd_[A-Za-z0-9_-]{46}$/);
    expect(a.verify(key)).toEqual(identity);
    expect(identity.id).toMatch(/^k_/);
    const otherSecret = createKeyring({ staticKeys: [], secret: 't'.repeat(32), revoked: [] });
    expect(otherSecret.verify(key)).toBeNull();
  });

  it('refuses tampered, truncated and revoked keys', () => {
    const ring = createKeyring({ staticKeys: [], secret, revoked: [] });
    const { key } = ring.issue();
    const flipped = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
    expect(ring.verify(flipped)).toBeNull();
    expect(ring.verify(key.slice(0, -2))).toBeNull();
    expect(createKeyring({ staticKeys: [], secret, revoked: [key] }).verify(key)).toBeNull();
  });

  it('accepts static keys with a hashed id, unless revoked', () => {
    const ring = createKeyring({ staticKeys: ['static-key-1'], secret, revoked: [] });
    const id = ring.verify('static-key-1');
    expect(id?.kind).toBe('static');
    expect(id?.id).not.toContain('static-key-1');
    expect(
      createKeyring({ staticKeys: ['static-key-1'], secret, revoked: ['static-key-1'] }).verify('static-key-1'),
    ).toBeNull();
  });
});

describe('generated secret', () => {
  it('is created once in the data directory with mode 0600 and reused', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'nd-secret-')), 'nested');
    const first = loadOrCreateSecret(null, dir);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(statSync(join(dir, 'secret')).mode & 0o777).toBe(0o600);
    expect(loadOrCreateSecret(null, dir)).toBe(first);
    expect(readFileSync(join(dir, 'secret'), 'utf8').trim()).toBe(first);
    expect(loadOrCreateSecret('configured-secret-value', dir)).toBe('configured-secret-value');
  });
});
