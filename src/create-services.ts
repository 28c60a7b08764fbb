/** Builds the long-lived services from the configuration (production wiring; tests may override parts). */
import type { Config } from './config.js';
import type { Logger } from './log.js';
import { createKeyring, loadOrCreateSecret } from './server/keys.js';
import { createMemoryQuotaStore } from './server/quota.js';
import type { Services } from './services.js';

export interface ServiceOverrides {
  now?: () => number;
}

export async function createServices(config: Config, logger: Logger, overrides: ServiceOverrides = {}): Promise<Services> {
  const now = overrides.now ?? Date.now;
  const secret = loadOrCreateSecret(config.auth.secret, config.server.dataDir);
  const keyring = createKeyring({ staticKeys: config.auth.keys, secret, revoked: config.auth.revoked });
  const quota = createMemoryQuotaStore({ credits: config.quota.credits, windowSeconds: config.quota.windowSeconds }, now);
  return {
    config,
    keyring,
    quota,
    logger,
    now,
    async close() {
      await quota.close();
    },
  };
}
