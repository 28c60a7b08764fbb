import { describe, expect, it } from 'vitest';
import {
  PARTIAL_TTL_MS,
  REGISTRY_TTL_MS,
  createRegistryCache,
  registrationBytes,
} from '../../../src/loaders/registry-cache.js';
import type { RegistryResult } from '../../../src/probes/registry/lookup.js';

function result(domain: string, raw = 'Domain Name: X\r\n'): RegistryResult {
  return {
    domain,
    matchedDomain: domain,
    source: 'WHOIS',
    notFound: false,
    registrar: 'Registrar',
    creationDate: null,
    expiryDate: null,
    updatedDate: null,
    nameServers: ['ns1.example.net'],
    abuseEmail: null,
    abusePhone: null,
    message: null,
    raw,
    servers: ['whois.iana.org'],
  };
}

describe('registry cache', () => {
  it('keeps a complete answer for an hour and a partial one for five minutes, by the injected clock', async () => {
    let now = 1_000_000;
    const cache = createRegistryCache({ now: () => now });
    cache.set('complete.test', { result: result('complete.test'), fetchedAt: now, complete: true });
    cache.set('partial.test', { result: result('partial.test'), fetchedAt: now, complete: false });
    now += PARTIAL_TTL_MS - 1;
    expect((await cache.get('partial.test'))?.complete).toBe(false);
    now += 2;
    expect(await cache.get('partial.test')).toBeUndefined();
    expect((await cache.get('complete.test'))?.complete).toBe(true);
    now += REGISTRY_TTL_MS - PARTIAL_TTL_MS;
    expect(await cache.get('complete.test')).toBeUndefined();
  });

  it('is keyed by the name without case or root dot', async () => {
    const cache = createRegistryCache();
    cache.set('Example.TEST.', { result: result('example.test'), fetchedAt: 0, complete: true });
    expect((await cache.get('example.test'))?.result.domain).toBe('example.test');
  });

  it('is bounded in bytes: a 256 KiB answer counts as such, and older entries give way', async () => {
    const big = 'x'.repeat(256 * 1024);
    expect(registrationBytes(result('a.test', big))).toBeGreaterThan(2 * big.length);
    const cache = createRegistryCache({ maxBytes: 1024 * 1024 });
    for (const name of ['a.test', 'b.test', 'c.test'])
      cache.set(name, { result: result(name, big), fetchedAt: 0, complete: true });
    // three answers of ~512 KiB in memory do not fit in 1 MiB: the least recently used went
    expect(await cache.get('a.test')).toBeUndefined();
    expect(await cache.get('b.test')).toBeUndefined();
    expect(await cache.get('c.test')).toBeDefined();
  });
});
