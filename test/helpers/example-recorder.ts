/**
 * Records real REST answers of a test run as the OpenAPI document's examples (data/openapi-examples.json,
 * written by `npm run openapi:examples`). Off unless NETDIAG_RECORD_EXAMPLES names a directory: then every
 * 200 answer of a tool is kept there, one file per answer, for the script to choose from.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env['NETDIAG_RECORD_EXAMPLES'];
let sequence = 0;

export async function recordExample(path: string, method: string, response: Response): Promise<void> {
  if (!dir || method !== 'GET' || response.status !== 200) return;
  const url = new URL(path, 'http://netdiag.test');
  const tool = /^\/api\/v1\/([a-z-]+)$/.exec(url.pathname)?.[1];
  if (!tool || tool === 'openapi.json') return;
  let body: unknown;
  try {
    body = await response.clone().json();
  } catch {
    return; // not a JSON envelope
  }
  mkdirSync(dir, { recursive: true });
  const query = Object.fromEntries([...url.searchParams].filter(([name]) => name !== 'api_key'));
  writeFileSync(join(dir, `${tool}.${process.pid}.${sequence++}.json`), JSON.stringify({ tool, query, body }));
}
