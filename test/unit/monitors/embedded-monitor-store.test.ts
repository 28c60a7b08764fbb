/**
 * The monitors' store on the embedded database (src/monitors/store/embedded-monitor-store.ts): the stores'
 * contract (./monitor-store-contract.ts), each test on an environment of its own; "another process after
 * a restart" opens the same directory again.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'vitest';
import { EmbeddedMonitorStore } from '../../../src/monitors/store/embedded-monitor-store.js';
import { openEmbeddedDb } from '../../../src/platform/embedded-db.js';
import { describeMonitorStoreContract } from './monitor-store-contract.js';

describe('the embedded monitors store', () => {
  describeMonitorStoreContract(async (options = {}) => {
    const dir = mkdtempSync(join(tmpdir(), 'nd-mon-'));
    const settings = { keepRuns: 100, keepEventsDays: 90, ...options };
    const openIn = () => new EmbeddedMonitorStore(openEmbeddedDb(dir), settings);
    return { store: openIn(), reopen: async () => openIn(), writerArgs: ['embedded', dir] };
  });
});
