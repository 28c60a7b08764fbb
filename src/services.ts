/**
 * Everything a request may use that outlives it: configuration, the keyring, the credit ledger,
 * the logger and the probes. Built once in main.ts (composition root); tests build their own with
 * loopback upstreams.
 */
import type { Config } from './config.js';
import type { Logger } from './log.js';
import type { QuotaStore } from './server/quota.js';
import type { Keyring } from './server/keys.js';

export interface Services {
  readonly config: Config;
  readonly keyring: Keyring;
  readonly quota: QuotaStore;
  readonly logger: Logger;
  readonly now: () => number;
  /** releases timers, sockets and stores */
  close(): Promise<void>;
}
