/**
 * Every page asset from the first visit on a fresh instance of two workers, the real `npm start` path
 * (test/helpers/process.ts): GraphiQL's page and its script and style sheet, the report page and its own,
 * the favicon — each asked several times over new connections, which the primary hands to the two workers in
 * turn. Before the build prepared them, GraphiQL's assets existed only in the worker that had rendered its
 * page, and the other worker answered 404 (issue 32).
 */
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { startService } from '../helpers/process.js';

/** One GET on a connection of its own (no keep-alive: the primary routes each connection to a worker). */
function get(
  base: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Buffer; type: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { agent: false, headers: { connection: 'close', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks),
          type: String(res.headers['content-type']),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('web assets on a fresh two-worker instance', { timeout: 90_000 }, () => {
  it('answers the pages and every asset they name, on either worker, from the first visit', async () => {
    const s = startService({ server: { host: '127.0.0.1', port: 0, workers: 2 } });
    try {
      const base = `http://${await s.listening}`;
      // both workers ready, so that new connections alternate between them
      await expect
        .poll(
          () =>
            s
              .output()
              .split('\n')
              .filter((l) => l.includes('"event":"ready"')).length,
          { timeout: 30_000 },
        )
        .toBe(2);
      const graphiql = await get(base, '/graphql', { accept: 'text/html' });
      const report = await get(base, '/report?domain=example.com', {});
      expect([graphiql.status, report.status]).toEqual([200, 200]);
      const assets = [
        ...new Set(
          [graphiql, report].flatMap((page) =>
            [...page.body.toString().matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!),
          ),
        ),
      ];
      expect(assets.map((a) => a.replace(/\.[\w-]{16}\./, '.<hash>.')).sort()).toEqual([
        '/assets/favicon.<hash>.svg',
        '/assets/graphiql.<hash>.css',
        '/assets/graphiql.<hash>.js',
        '/assets/report.<hash>.css',
        '/assets/report.<hash>.js',
      ]);
      const statuses: string[] = [];
      for (let round = 0; round < 4; round++) {
        for (const path of [...assets, '/favicon.ico', '/graphql']) {
          const answer = await get(base, path, {
            accept: path === '/graphql' ? 'text/html' : '*/*',
            'accept-encoding': 'br',
          });
          statuses.push(`${answer.status} ${path}`);
        }
      }
      expect(statuses.filter((line) => !line.startsWith('200 '))).toEqual([]);
    } finally {
      s.child.kill('SIGTERM');
      await s.exited;
    }
  });
});
