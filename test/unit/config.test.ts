import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildConfig, ConfigError, loadConfig, parseHostPort } from '../../src/config.js';

describe('configuration', () => {
  it('has defaults that serve real traffic', () => {
    const c = buildConfig({});
    expect(c.server).toEqual({
      host: '0.0.0.0',
      port: 8080,
      trustedProxies: [],
      dataDir: '.netdiag',
      requestTimeoutMs: 20000,
      compositeTimeoutMs: 30000,
      workers: 0,
      role: 'both',
    });
    expect(c.tcp).toEqual({ connectTimeoutMs: 5000 });
    expect(c.tls).toEqual({ handshakeTimeoutMs: 5000, ratingHandshakes: 200, ratingConcurrency: 8 });
    expect(c.quota).toEqual({
      credits: 300,
      windowSeconds: 86400,
      costs: { default: 3 },
    });
    expect(c.dnssec.source).toBe('resolver');
    expect(c.dnssec.trustAnchors.map((a) => a.split(' ')[3])).toEqual(['20326', '38696']);
    expect(c.dns.publicResolvers.map((r) => r.ip)).toEqual([
      '8.8.8.8',
      '1.1.1.1',
      '9.9.9.9',
      '208.67.222.222',
      '64.6.64.6',
      '94.140.14.14',
      '223.5.5.5',
      '4.2.2.1',
    ]);
    expect(c.dns.publicResolvers[0]!.address).toEqual({ host: '8.8.8.8', port: 53 });
    expect(c.dnsbl.zones).toHaveLength(6);
    expect(c.dnsbl.zones.map((z) => z.zone).join()).not.toMatch(/sorbs/);
    expect(c.whois).toEqual({ server: 'whois.iana.org', port: 43, timeoutMs: 8000 });
    expect(c.http).toEqual({ timeoutMs: 10000, maxRedirects: 10, maxBodyBytes: 1048576, hstsPreloadList: null });
    expect(Object.isFrozen(c.dns.publicResolvers[0])).toBe(true);
  });

  it('ignores, with a warning naming each, the keys this version no longer has (CHANGELOG "Removed")', () => {
    const warnings: string[] = [];
    const c = buildConfig(
      { server: { singleThreadedGc: true, port: 9000 }, outbound: { dns: 8 }, admission: { retryAfterSeconds: 5 } },
      {},
      'old.json',
      (w) => warnings.push(w),
    );
    expect(c.server.port).toBe(9000);
    expect(warnings).toEqual([
      'old.json: "server.singleThreadedGc" is no longer a setting and is ignored: pass --single-threaded-gc on the node command line',
      `old.json: "outbound.dns" is no longer a setting and is ignored: the per-family caps are the service's own (size admission.* instead)`,
      'old.json: "admission.retryAfterSeconds" is no longer a setting and is ignored: a shed request is told to retry in 2 s',
    ]);
    // a key that never existed is still refused
    expect(() => buildConfig({ server: { singleThreadGc: true } })).toThrow(/unknown key "server.singleThreadGc"/);
  });

  it('names the key path of an unknown key or a wrong type', () => {
    expect(() => buildConfig({ server: { prot: 1 } })).toThrow(/unknown key "server.prot"/);
    expect(() => buildConfig({ dns: { timeoutMs: '2000' } })).toThrow(/"dns.timeoutMs": .*expected number/);
    expect(() => buildConfig({ dns: { publicResolvers: [{ name: 'x', ip: 'nope', countryCode: 'US' }] } })).toThrow(
      /"dns.publicResolvers.0.ip"/,
    );
    expect(() => buildConfig({ targets: { allow: ['10.0.0.0/33'] } })).toThrow(/"targets.allow.0"/);
    expect(() => buildConfig({ extra: true })).toThrow(ConfigError);
  });

  it('merges partial costs over the defaults and parses resolver addresses', () => {
    const c = buildConfig({
      quota: { costs: { whois: 5 } },
      dns: {
        system: ['127.0.0.1:5353', '[::1]:53', '::1'],
        publicResolvers: [{ name: 'Lab', ip: '8.8.8.8', countryCode: 'US', address: '127.0.0.1:5300' }],
      },
    });
    expect(c.quota.costs).toEqual({ default: 3, whois: 5 });
    expect(c.dns.system).toEqual([
      { host: '127.0.0.1', port: 5353 },
      { host: '::1', port: 53 },
      { host: '::1', port: 53 },
    ]);
    expect(c.dns.publicResolvers[0]!.address).toEqual({ host: '127.0.0.1', port: 5300 });
  });

  it('reads the file named by NETDIAG_CONFIG and the documented environment variables', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nd-config-'));
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ server: { port: 9000 }, auth: { keys: ['file-key-123'] } }));
    const c = loadConfig({
      NETDIAG_CONFIG: file,
      PORT: '9100',
      NETDIAG_API_KEYS: 'env-key-1234, env-key-5678',
      NETDIAG_SECRET: 'x'.repeat(20),
      REDIS_URL: 'redis://127.0.0.1:6379',
    });
    expect(c.server.port).toBe(9100);
    expect(c.auth.keys).toEqual(['file-key-123', 'env-key-1234', 'env-key-5678']);
    expect(c.auth.secret).toBe('x'.repeat(20));
    expect(c.store.redisUrl).toBe('redis://127.0.0.1:6379');
    writeFileSync(file, '{ not json');
    expect(() => loadConfig({ NETDIAG_CONFIG: file })).toThrow(/not valid JSON/);
    expect(() => loadConfig({ NETDIAG_CONFIG: join(dir, 'missing.json') })).toThrow(/cannot read/);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(loadConfig({ METRICS_PORT: '9500' }).metrics.port).toBe(9500);
    expect(() => loadConfig({ METRICS_PORT: 'none' })).toThrow('environment: METRICS_PORT: expected a port number');
  });

  it('names the environment variable, not a key of a file, when a value it set is refused (and never repeats it)', () => {
    const refusal = (env: NodeJS.ProcessEnv, file: object = {}) => {
      try {
        buildConfig(file, env);
      } catch (e) {
        return (e as ConfigError).message;
      }
      throw new Error('accepted');
    };
    expect(refusal({ NETDIAG_API_KEYS: 'abc' })).toBe(
      'environment: NETDIAG_API_KEYS, its 1st item (sets "auth.keys.0"): a static key needs at least 8 characters',
    );
    expect(refusal({ NETDIAG_API_KEYS: 'long-enough-1,abc' }, { auth: { keys: ['file-key-123'] } })).toBe(
      'environment: NETDIAG_API_KEYS, its 2nd item (sets "auth.keys.2"): a static key needs at least 8 characters',
    );
    // the file's own bad key is the file's
    expect(refusal({ NETDIAG_API_KEYS: 'long-enough-1' }, { auth: { keys: ['short'] } })).toBe(
      'config: "auth.keys.0": a static key needs at least 8 characters',
    );
    expect(refusal({ NETDIAG_SECRET: 'too-short' })).toBe(
      'environment: NETDIAG_SECRET (sets "auth.secret"): the secret needs at least 16 characters',
    );
    expect(refusal({ REDIS_URL: 'not a url' })).toMatch(/^environment: REDIS_URL \(sets "store.redisUrl"\): /);
  });

  it('parses host:port forms', () => {
    expect(parseHostPort('example.com', 53)).toEqual({ host: 'example.com', port: 53 });
    expect(parseHostPort('[2001:db8::1]:5353', 53)).toEqual({ host: '2001:db8::1', port: 5353 });
    expect(parseHostPort('host:0', 53)).toBeNull();
    expect(parseHostPort('bad host', 53)).toBeNull();
  });
});

describe('server.role', () => {
  it('takes api or jobs only with store.redisUrl, where instances share the job queue', () => {
    expect(() => buildConfig({ server: { role: 'jobs' } })).toThrow(/"server.role": "jobs" needs store.redisUrl/);
    const redis = { store: { redisUrl: 'redis://127.0.0.1:6390/0' } };
    expect(buildConfig(redis, { NETDIAG_ROLE: 'api' }).server.role).toBe('api');
    expect(buildConfig({ ...redis, server: { role: 'jobs' } }).server.role).toBe('jobs');
  });
});
