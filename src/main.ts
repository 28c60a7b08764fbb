/**
 * Composition root: loadConfig → services → createApp → listen. The only place that reads the
 * environment (through loadConfig) and handles signals.
 */
import { createServer } from 'node:http';
import { createServerAdapter } from '@whatwg-node/server';
import { createApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { createJsonLogger } from './log.js';
import { createServices } from './create-services.js';
import { enableProcessMetrics } from './server/metrics.js';

const SHUTDOWN_GRACE_MS = 25_000;

async function main(): Promise<void> {
  const logger = createJsonLogger();
  let config;
  let services;
  try {
    config = loadConfig();
    // Services read files named by the configuration (RDAP bootstrap, IP database): a bad one is a
    // configuration error too, reported the same way.
    services = await createServices(config, logger);
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`netdiag: refusing to start: invalid configuration\n${e.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw e;
  }
  enableProcessMetrics(services.metrics);
  // Build the IP database index now, in the background, so the first ip-info request does not pay
  // for it (about a second); a failure leaves lookups to try again and says why.
  const warming = performance.now();
  services.ipData.warm?.().then(
    () => logger.info('ip_database_ready', { ms: Math.round(performance.now() - warming) }),
    (e: unknown) => logger.error('ip_database_unavailable', { message: (e as Error).message }),
  );
  const app = createApp(services);
  const adapter = createServerAdapter<{ req: import('node:http').IncomingMessage }>((request, ctx) =>
    app.fetch(request, { peerAddress: ctx.req.socket.remoteAddress ?? null }),
  );
  const server = createServer(adapter);
  server.keepAliveTimeout = 5_000;
  server.headersTimeout = 10_000;
  server.requestTimeout = 60_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.server.port, config.server.host, () => resolve());
  });
  const address = server.address();
  logger.info('listening', { address: typeof address === 'object' && address ? `${address.address}:${address.port}` : address });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutdown', { signal });
    // Stop accepting, let in-flight requests finish, close idle keep-alive sockets now.
    server.close(async () => {
      await services.close();
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
}

main().catch((e) => {
  process.stderr.write(`netdiag: failed to start: ${(e as Error).stack ?? e}\n`);
  process.exit(1);
});
