/**
 * Preloaded into the service through NODE_OPTIONS by test/integration/start-up.test.ts: every cluster
 * worker fails while it starts (the primary is left alone), and notes its pid in NETDIAG_TEST_FORKS so
 * the test can count how many workers were forked.
 */
const cluster = require('node:cluster');
const { appendFileSync } = require('node:fs');

if (cluster.isWorker) {
  appendFileSync(process.env.NETDIAG_TEST_FORKS, `${process.pid}\n`);
  throw new Error('this worker cannot start (test/helpers/worker-fails-at-start.cjs)');
}
