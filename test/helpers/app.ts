/** Builds an in-process app with a test configuration (loopback upstreams only) and a controllable clock. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type App, type AppOptions } from '../../src/app.js';
import { buildConfig } from '../../src/config.js';
import { DEFAULT_PUBLIC_RESOLVERS } from '../../src/config/public-resolvers.js';

/** The discard port on loopback: nothing listens there in tests. */
const NOWHERE = '127.0.0.1:9';
import { createServices, type ServiceOverrides } from '../../src/create-services.js';
import { NO_LOOP_DELAY_SENSOR } from '../../src/platform/admission.js';
import type { Logger } from '../../src/log.js';
import type { Services } from '../../src/services.js';
import { recordExample } from './example-recorder.js';
import { seedIpData } from './ip-data.js';

export const TEST_KEY = 'test-key-0123456789';

export interface TestApp {
  app: App;
  services: Services;
  logs: Array<Record<string, unknown>>;
  /** GET a path with the test key in the header (unless `key: null`) */
  get(
    path: string,
    init?: { key?: string | null; headers?: Record<string, string>; peer?: string | null; method?: string },
  ): Promise<Response>;
  close(): Promise<void>;
}

export async function createTestApp(
  config: Record<string, any> = {},
  overrides: ServiceOverrides = {},
  /** where jobs and monitors run (an instance that only answers: `{ kind: 'elsewhere' }`) */
  appOptions: AppOptions = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'netdiag-test-'));
  seedIpData(dataDir);
  const merged = {
    ...config,
    server: { dataDir, ...(config.server ?? {}) },
    auth: { keys: [TEST_KEY], ...(config.auth ?? {}) },
    // Upstreams a test did not set point at a closed loopback port, never at the production
    // defaults (the OS resolver, public resolvers, whois.iana.org): a slip fails fast as REFUSED
    // even outside CI's loopback-only network namespace.
    dns: {
      system: [NOWHERE],
      publicResolvers: DEFAULT_PUBLIC_RESOLVERS.map((r) => ({ ...r, address: NOWHERE })),
      ...(config.dns ?? {}),
    },
    whois: { server: '127.0.0.1', port: 9, ...(config.whois ?? {}) },
    // dnssec-chain's authoritative walk starts at the real root servers by default
    dnssec: { rootServers: ['127.0.0.1:9'], ...(config.dnssec ?? {}) },
    ipInfo: { baseUrl: 'http://127.0.0.1:9', ...(config.ipInfo ?? {}) },
    // the bundled bootstrap names the real registries' RDAP servers
    rdap: config.rdap ?? { enabled: false },
  };
  const logs: Array<Record<string, unknown>> = [];
  const logger: Logger = {
    info: (event, fields) => logs.push({ level: 'info', event, ...fields }),
    warn: (event, fields) => logs.push({ level: 'warn', event, ...fields }),
    error: (event, fields) => logs.push({ level: 'error', event, ...fields }),
  };
  // A busy test machine can run the event loop late; no sensor (and no timer) per app: a test that
  // wants one passes it (test/unit/platform/admission.test.ts).
  const services = await createServices(buildConfig(merged), logger, {
    loopDelaySensor: NO_LOOP_DELAY_SENSOR,
    ...overrides,
  });
  const app = createApp(services, appOptions);
  return {
    app,
    services,
    logs,
    async get(path, init = {}) {
      const headers = new Headers(init.headers);
      const key = init.key === undefined ? TEST_KEY : init.key;
      if (key !== null) headers.set('x-api-key', key);
      const response = await app.fetch(
        new Request(`http://netdiag.test${path}`, { method: init.method ?? 'GET', headers }),
        {
          peerAddress: init.peer === undefined ? '127.0.0.1' : init.peer,
        },
      );
      await recordExample(path, init.method ?? 'GET', response);
      return response;
    },
    async close() {
      // the job runner's connections first (with Redis: its queue and worker), as the service stops
      app.stopBackground();
      await services.close();
    },
  };
}

/** POST a GraphQL operation. */
export async function graphql(
  t: TestApp,
  query: string,
  variables: Record<string, unknown> = {},
  init: { key?: string | null; peer?: string | null; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const headers = new Headers({
    'content-type': 'application/json',
    accept: 'application/graphql-response+json',
    ...init.headers,
  });
  const key = init.key === undefined ? TEST_KEY : init.key;
  if (key !== null) headers.set('x-api-key', key);
  const res = await t.app.fetch(
    new Request('http://netdiag.test/graphql', { method: 'POST', headers, body: JSON.stringify({ query, variables }) }),
    { peerAddress: init.peer === undefined ? '127.0.0.1' : init.peer },
  );
  return { status: res.status, body: await res.json(), headers: res.headers };
}
