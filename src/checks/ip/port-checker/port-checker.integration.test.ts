import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../../../../test/helpers/app.js';
import {
  DUAL_HOST,
  NO_ADDRESS_HOST,
  startConnectionTestApps,
  TEST_BOUND_MS,
  V6_HOST,
  type ConnectionTestApps,
} from '../../../../test/helpers/tls-apps.js';
import { startBlackhole, startTcpServer, unusedPort, type LabTcpServer } from '../../../../test/lab/tcp-server.js';

let apps: ConnectionTestApps;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  apps = await startConnectionTestApps();
});
afterAll(async () => {
  await apps.close();
});
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function listener(host = '127.0.0.1'): Promise<LabTcpServer> {
  const server = await startTcpServer(undefined, host);
  cleanups.push(() => server.close());
  return server;
}

async function portChecker(query: string, app = apps.t): Promise<{ status: number; body: any }> {
  const res = await app.get(`/api/v1/port-checker?${query}`);
  return { status: res.status, body: await res.json() };
}

const META = { tool: 'port-checker', version: 'v1' };

describe('port-checker', () => {
  it('open: the handshake completed', async () => {
    const server = await listener();
    const res = await portChecker(`host=127.0.0.1&port=${server.port}`);
    expect(res).toEqual({
      status: 200,
      body: {
        ok: true,
        data: {
          host: '127.0.0.1',
          port: server.port,
          status: 'open',
          responseTime: expect.any(Number),
          ip: '127.0.0.1',
          reason: null,
        },
        meta: META,
      },
    });
    expect(server.connections()).toBe(1);
  });

  it('closed: the connection was refused', async () => {
    const port = await unusedPort();
    const res = await portChecker(`host=127.0.0.1&port=${port}`);
    expect(res.body.data).toEqual({
      host: '127.0.0.1',
      port,
      status: 'closed',
      responseTime: expect.any(Number),
      ip: '127.0.0.1',
      reason: null,
    });
  });

  it('filtered: no answer within the connect bound', async () => {
    const blackhole = await startBlackhole();
    cleanups.push(() => blackhole.close());
    const started = Date.now();
    const res = await portChecker(`host=127.0.0.1&port=${blackhole.port}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'filtered', reason: `no answer within ${TEST_BOUND_MS} ms` });
    expect(res.body.data.responseTime).toBeGreaterThanOrEqual(TEST_BOUND_MS - 50);
    expect(Date.now() - started).toBeLessThan(2 * TEST_BOUND_MS);
  });

  it('resolves a hostname (IPv4 preferred) and takes IPv6 addresses and names', async () => {
    const server = await listener();
    const byName = await portChecker(`host=${DUAL_HOST.toUpperCase()}.&port=${server.port}`);
    expect(byName.body.data).toMatchObject({ host: DUAL_HOST, ip: '127.0.0.1', status: 'open' });

    const v6 = await listener('::1');
    for (const host of ['::1', '[::1]', V6_HOST]) {
      const res = await portChecker(`host=${encodeURIComponent(host)}&port=${v6.port}`);
      expect(res.body.data, host).toMatchObject({ ip: '::1', status: 'open' });
    }
  });

  it('rejects bad input with a 400 naming the parameter, before any lookup', async () => {
    apps.dns.clearQueries();
    const cases: [string, RegExp][] = [
      ['port=80', /^host: missing required parameter$/],
      [`host=${DUAL_HOST}`, /^port: missing required parameter$/],
      [`host=${DUAL_HOST}&port=0`, /^port: "0" is out of range; a port is 1–65535$/],
      [`host=${DUAL_HOST}&port=65536`, /^port: "65536" is out of range/],
      [`host=${DUAL_HOST}&port=%2B80`, /^port: "\+80" is not a port number/],
      [`host=${DUAL_HOST}&port=8.0`, /^port: "8\.0" is not a port number/],
      [`host=${DUAL_HOST}%3A80&port=80`, /^host: .*has a port/],
      ['host=http%3A%2F%2Fexample.com%2F&port=80', /^host: .*is a URL/],
      [`host=${DUAL_HOST}&port=80&port=81`, /^port: the parameter is repeated/],
    ];
    for (const [query, message] of cases) {
      const res = await portChecker(query);
      expect(res, query).toEqual({
        status: 400,
        body: { ok: false, error: expect.stringMatching(message), meta: META },
      });
    }
    const gql = await graphql(apps.t, 'query ($p: Int!) { portChecker(host: "good.lab.test", port: $p) { status } }', {
      p: 70000,
    });
    expect(gql.body.errors[0]).toMatchObject({
      message: 'port: "70000" is out of range; a port is 1–65535',
      extensions: { code: 'BAD_INPUT' },
    });
    expect(apps.dns.queries).toHaveLength(0);
  });

  it('is a 504 naming the resolver when the name does not resolve in time', async () => {
    apps.dns.setBehaviour('silent.lab.test', { drop: true });
    try {
      const res = await portChecker('host=silent.lab.test&port=443');
      expect(res.status).toBe(504);
      // the service's own resolver is named, never located (test/security/internal-addresses.test.ts)
      expect(res.body.error).toMatch(/^the service's resolver did not answer /);
    } finally {
      apps.dns.clearBehaviours();
    }
  });

  it('is a 400 for a name without addresses', async () => {
    const res = await portChecker(`host=${NO_ADDRESS_HOST}&port=443`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^host: noaddr\.lab\.test has no A or AAAA record/);
  });

  it('refuses private and internal targets without the allow list: 400, and nothing connects', async () => {
    const server = await listener();
    for (const host of ['127.0.0.1', '2130706433', DUAL_HOST, '::ffff:127.0.0.1']) {
      const res = await portChecker(`host=${encodeURIComponent(host)}&port=${server.port}`, apps.refusing);
      expect(res.status, host).toBe(400);
      expect(res.body.error, host).toMatch(/loopback address; checks of private or internal addresses are refused$/);
    }
    const gql = await graphql(apps.refusing, `{ portChecker(host: "127.0.0.1", port: ${server.port}) { status } }`);
    expect(gql.body.errors[0].extensions.code).toBe('TARGET_REFUSED');
    expect(server.connections()).toBe(0);
  });

  it('tests one (address, port) once per operation', async () => {
    const server = await listener();
    const res = await graphql(
      apps.t,
      `query ($p: Int!) { a: portChecker(host: "127.0.0.1", port: $p) { status } b: portChecker(host: "${DUAL_HOST}", port: $p) { status ip } }`,
      { p: server.port },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data).toEqual({ a: { status: 'open' }, b: { status: 'open', ip: '127.0.0.1' } });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(server.connections()).toBe(1);
  });
});
