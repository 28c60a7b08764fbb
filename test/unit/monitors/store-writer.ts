/**
 * A child process for the stores' crash test (./monitor-store-contract.ts): opens the store its arguments
 * name (`embedded <dataDir>` or `redis <url> <prefix>`, then the monitor's id), commits the runs of
 * ./store-fixture.ts one by one and tells the parent after each, until it is killed.
 */
import { Redis } from 'ioredis';
import type { MonitorStore } from '../../../src/monitors/store/monitor-store.js';
import { EmbeddedMonitorStore } from '../../../src/monitors/store/embedded-monitor-store.js';
import { createRedisMonitorStore } from '../../../src/monitors/store/redis-monitor-store.js';
import { openEmbeddedDb } from '../../../src/platform/embedded-db.js';
import { commitRun, RUNS } from './store-fixture.js';

const SETTINGS = { keepRuns: 100, keepEventsDays: 90 };

function openStore(args: string[]): { store: MonitorStore; monitorId: string } {
  const [kind, ...rest] = args;
  if (kind === 'embedded') {
    const [dataDir, monitorId] = rest;
    return { store: new EmbeddedMonitorStore(openEmbeddedDb(dataDir!), SETTINGS), monitorId: monitorId! };
  }
  if (kind === 'redis') {
    const [url, prefix, monitorId] = rest;
    return { store: createRedisMonitorStore({ redis: new Redis(url!), prefix, ...SETTINGS }), monitorId: monitorId! };
  }
  throw new Error(`unknown store kind ${kind}`);
}

const { store, monitorId } = openStore(process.argv.slice(2));
for (let i = 0; i < RUNS; i++) {
  await commitRun(store, monitorId, i);
  process.send!(i);
}
process.send!('done');
setInterval(() => {}, 1000);
