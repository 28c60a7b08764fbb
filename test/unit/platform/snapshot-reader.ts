/**
 * A process of the instance that reads the embedded database when told to (embedded-db-processes.test.ts):
 * for each message `{ key }` it answers whether the key is there, then reads once more, so the snapshot of
 * that turn is still current when the next message arrives.
 */
import { openEmbeddedDb } from '../../../src/platform/embedded-db.js';

const shared = openEmbeddedDb(process.argv[2]!).openDB<string, string>({ name: 'shared' });
process.on('message', (message: { key: string }) => {
  const seen = shared.get(message.key) !== undefined;
  shared.get('another');
  process.send!({ key: message.key, seen });
});
process.send!('ready');
