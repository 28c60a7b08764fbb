/**
 * Where the command's requests go: a netdiag service over HTTP (`--url`), or the service's own app in this
 * process (`--local`): the same schema and checks, executed by the app's in-process `fetch` with the same
 * configuration file, so a local answer is what the service would answer. Either way the command speaks
 * the v1 REST API, and nothing else differs.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { selectDeclarations } from '../graphql-server/declaration-selection.js';
import { mark } from './timings.js';

export interface Transport {
  /**
   * a request to the API, e.g. `/api/v1/tls-rating?domain=example.com`, ended by the command's give-up
   * signal (--timeout) unless `init.signal` is given
   */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** true in process: many targets run here, with bounded concurrency, rather than as a job */
  readonly local: boolean;
  close(): Promise<void>;
}

/** `giveUp`: the command's bound (--timeout), which ends every request not given a signal of its own. */
export function remoteTransport(url: string, key: string | null, giveUp: AbortSignal | null = null): Transport {
  return {
    local: false,
    fetch(path, init = {}) {
      const headers = new Headers(init.headers);
      if (key) headers.set('x-api-key', key);
      headers.set('user-agent', 'netdiag-cli');
      return fetch(`${url}${path}`, { ...init, headers, signal: init.signal ?? giveUp });
    },
    close: async () => {},
  };
}

/** The credits of the command's own key in process: the ledger counts API clients, not the operator's runs. */
const LOCAL_CREDITS = 1_000_000_000;

/**
 * The app in this process. The configuration file is read as the service reads it (NETDIAG_CONFIG and the
 * environment), with the changes that make it a command rather than an instance: a key of its own (made
 * here, used in this process only), credits without a practical bound, no Redis (the ledgers and job queue
 * are the service's business), no shedding on a late event loop, no job runner, and `<server.dataDir>/cli`
 * as its data directory, so that it never takes over the service's jobs (docs/cli.md "In process").
 * `tools`: the checks the command will run, the only ones loaded (null: every one, as the service does);
 * `giveUp`: the command's bound (--timeout).
 */
export async function localTransport(
  configFile: string | null,
  env: Readonly<Record<string, string | undefined>>,
  tools: readonly string[] | null = null,
  giveUp: AbortSignal | null = null,
): Promise<Transport> {
  // before the schema is imported: only these checks' declarations are loaded (null: every one)
  selectDeclarations(tools);
  const { buildConfig, ConfigError } = await import('../config.js');
  mark('config module evaluated');
  const { createServices } = await import('../create-services.js');
  mark('services module evaluated');
  const { createApp } = await import('../app.js');
  mark('app module evaluated');
  const [{ silentLogger }, { localJobBus }] = await Promise.all([import('../log.js'), import('../jobs/job-bus.js')]);
  let raw: Record<string, any> = {};
  if (configFile) {
    try {
      raw = JSON.parse(readFileSync(configFile, 'utf8'));
    } catch (e) {
      throw new ConfigError(`${configFile}: cannot read the configuration (${(e as Error).message})`);
    }
  }
  const key = `cli-${randomBytes(18).toString('base64url')}`;
  const { REDIS_URL: _redis, ...otherEnv } = env;
  const dataDir = String(otherEnv.NETDIAG_DATA_DIR ?? raw.server?.dataDir ?? '.netdiag');
  const config = buildConfig(
    {
      ...raw,
      server: { ...raw.server, dataDir: join(dataDir, 'cli') },
      auth: { ...raw.auth, keys: [key] },
      quota: { ...raw.quota, credits: LOCAL_CREDITS },
      store: { ...raw.store, redisUrl: null },
      admission: { ...raw.admission, maxEventLoopDelayMs: 0 },
      unkeyed: { ...raw.unkeyed, requests: 0 },
    },
    { ...otherEnv, NETDIAG_DATA_DIR: join(dataDir, 'cli') },
    configFile ?? 'config',
  );
  mark('configuration built');
  const services = await createServices(config, silentLogger);
  mark('services made');
  // The command never submits a job (many targets run here, with bounded concurrency: ./run-many.ts): no
  // runner here, and the job store is opened only if a job endpoint is ever asked, so the command neither
  // opens the embedded database nor starts a runner on its way to one check (docs/cli.md "Performance").
  const app = createApp(services, { jobs: { kind: 'elsewhere', bus: localJobBus() } });
  mark('app made');
  return {
    local: true,
    fetch(path, init = {}) {
      const headers = new Headers(init.headers);
      headers.set('x-api-key', key);
      // the request's signal is the check's (src/graphql/context.ts): giving up ends its probes
      const request = new Request(`http://netdiag.local${path}`, { ...init, headers, signal: init.signal ?? giveUp });
      return app.fetch(request, { peerAddress: '127.0.0.1' });
    },
    async close() {
      app.stopBackground();
      await services.close();
    },
  };
}
