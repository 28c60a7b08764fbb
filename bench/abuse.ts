/**
 * What an amplifying request without a key costs the service (issue 15): 150 aliased introspections in
 * one operation, and GraphiQL's introspection query the first time and from memory. In process, no network.
 */
import { getIntrospectionQuery } from 'graphql';
import { createApp } from '../src/app.js';
import { buildConfig } from '../src/config.js';
import { createServices } from '../src/create-services.js';
import { silentLogger } from '../src/log.js';

async function timed(
  app: ReturnType<typeof createApp>,
  query: string,
): Promise<{ ms: number; bytes: number; status: number }> {
  const started = performance.now();
  const res = await app.fetch(
    new Request('http://netdiag.bench/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    }),
    { peerAddress: '127.0.0.1' },
  );
  const bytes = (await res.arrayBuffer()).byteLength;
  return { ms: performance.now() - started, bytes, status: res.status };
}

export async function benchAbuse(): Promise<void> {
  const services = await createServices(
    buildConfig({ server: { dataDir: '/tmp/netdiag-bench' }, unkeyed: { requests: 0 } }),
    silentLogger,
  );
  const app = createApp(services);
  const aliases = `{ ${Array.from({ length: 150 }, (_, i) => `a${i}: __schema { types { name fields { name type { name } } } }`).join(' ')} }`;
  console.log('\n## requests without a key (in process)');
  console.log('| request | status | ms | bytes |');
  console.log('|---|---|---|---|');
  for (const [name, query] of [
    ['150 aliased __schema (refused)', aliases],
    ['GraphiQL introspection, first', getIntrospectionQuery()],
    ['GraphiQL introspection, from memory', getIntrospectionQuery()],
  ] as const) {
    const r = await timed(app, query);
    console.log(`| ${name} | ${r.status} | ${r.ms.toFixed(1)} | ${r.bytes} |`);
  }
  await services.close();
}

if (import.meta.url === `file://${process.argv[1]}`) await benchAbuse();
