/**
 * Composition root: loadConfig → listen → services → createApp. The only place that reads the
 * environment (through loadConfig) and handles signals.
 *
 * The port is open before the app is loaded: loading GraphQL, yoga, undici and the schema takes most of
 * a second, and an orchestrator's liveness probe should not wait for it. Until the app is in place,
 * /healthz answers 200 (the process is alive), /readyz 503 "starting", and everything else 503 with
 * Retry-After — so a balancer sends no traffic before /readyz says ready.
 */
import cluster from 'node:cluster';
import { createServer, type RequestListener } from 'node:http';
import { ConfigError, loadConfig, workerCount, type Config } from './config.js';
import { applyHeapGrowth } from './heap-growth.js';
import { applyHttpTimeouts } from './http-timeouts.js';
import { createJsonLogger } from './log.js';
import { whileStarting } from './web/starting.js';
import type { Services } from './services.js';

const SHUTDOWN_GRACE_MS = 25_000;

const LISTEN_ERRORS: Record<string, string> = {
  EADDRINUSE: 'the address is already in use (another process listens there; choose another PORT / server.port)',
  EADDRNOTAVAIL: 'the address is not one of this machine (check HOST / server.host)',
  EACCES: 'permission denied (ports below 1024 need privileges; choose another PORT / server.port)',
};

async function main(): Promise<void> {
  const started = performance.now();
  const logger = createJsonLogger();
  let config: Config;
  try {
    config = loadConfig();
  } catch (e) {
    refuseConfig(e);
  }
  applyHeapGrowth(config.server.heapGrowthPercent);

  if (workerCount(config) > 1 && cluster.isPrimary) {
    const { runPrimary } = await import('./cluster/primary.js');
    await runPrimary(config, logger, SHUTDOWN_GRACE_MS);
    return;
  }

  let listener: RequestListener = whileStarting;
  const server = applyHttpTimeouts(createServer((req, res) => listener(req, res)));
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.server.port, config.server.host, () => resolve());
    });
  } catch (e) {
    // The usual causes (another process on the port, a host that is not ours, a privileged port) are
    // operator errors: name the address and the cause, no stack trace.
    const { host, port } = config.server;
    const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
    const why = LISTEN_ERRORS[(e as NodeJS.ErrnoException).code ?? ''] ?? (e as Error).message;
    process.stderr.write(`netdiag: cannot listen on ${where}: ${why}\n`);
    logger.error('listen_failed', {
      address: where,
      code: (e as NodeJS.ErrnoException).code,
      message: (e as Error).message,
    });
    logger.flush?.();
    process.exit(1);
  }
  const address = server.address();
  logger.info('listening', {
    pid: process.pid,
    address: typeof address === 'object' && address ? `${address.address}:${address.port}` : address,
  });

  let services: Services | undefined;
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutdown', { signal });
    // Stop accepting, let in-flight requests finish, close idle keep-alive sockets now.
    server.close(async () => {
      await services?.close();
      logger.info('stopped', {});
      logger.flush?.();
      process.exit(0);
    });
    server.closeIdleConnections();
    setTimeout(() => {
      logger.error('shutdown_forced', { afterMs: SHUTDOWN_GRACE_MS });
      logger.flush?.();
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  const [
    { createServices },
    { createApp },
    { requestListenerFor },
    { enableProcessMetrics },
    { LEDGERS_IN_PRIMARY_ENV },
    { ipcLedgers },
  ] = await Promise.all([
    import('./create-services.js'),
    import('./app.js'),
    import('./http-server.js'),
    import('./platform/metrics.js'),
    import('./cluster/primary.js'),
    import('./cluster/ledger-ipc.js'),
  ]);
  try {
    // Services read files named by the configuration (RDAP bootstrap, IP database): a bad one is a
    // configuration error too, reported the same way.
    services = await createServices(
      config,
      logger,
      process.env[LEDGERS_IN_PRIMARY_ENV] === '1' ? { ledgers: ipcLedgers() } : {},
    );
  } catch (e) {
    refuseConfig(e);
  }
  enableProcessMetrics(services.metrics);
  listener = requestListenerFor(createApp(services));
  logger.info('ready', { ms: Math.round(performance.now() - started) });
  // Open the IP data now (on a first start its file is built by a child process, about a second), so the
  // first ip-info request does not wait for it; a failure leaves lookups to try again and says why.
  const warming = performance.now();
  services.ipData.warm?.().then(
    () => logger.info('ip_database_ready', { ms: Math.round(performance.now() - warming) }),
    (e: unknown) => logger.error('ip_database_unavailable', { message: (e as Error).message }),
  );
}

function refuseConfig(e: unknown): never {
  if (e instanceof ConfigError) {
    process.stderr.write(`netdiag: refusing to start: invalid configuration\n${e.message}\n`);
    process.exit(78); // EX_CONFIG
  }
  throw e;
}

main().catch((e) => {
  process.stderr.write(`netdiag: failed to start: ${(e as Error).stack ?? e}\n`);
  process.exit(1);
});
