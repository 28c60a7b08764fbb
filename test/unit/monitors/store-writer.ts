/**
 * A child process for the store's crash test (./embedded-monitor-store.test.ts): commits the runs of
 * ./store-fixture.ts one by one and tells the parent after each, until it is killed.
 */
import { openEmbeddedDb } from '../../../src/platform/embedded-db.js';
import { EmbeddedMonitorStore } from '../../../src/monitors/store/embedded-monitor-store.js';
import { commitRun, RUNS } from './store-fixture.js';
import { watchSpecs } from '../../../src/graphql-server/watch-specs.js';

const [dataDir, monitorId] = process.argv.slice(2);
const store = new EmbeddedMonitorStore(openEmbeddedDb(dataDir!), {
  keepRuns: 100,
  keepEventsDays: 90,
  specs: watchSpecs(),
});
for (let i = 0; i < RUNS; i++) {
  await commitRun(store, monitorId!, i);
  process.send!(i);
}
process.send!('done');
setInterval(() => {}, 1000);
