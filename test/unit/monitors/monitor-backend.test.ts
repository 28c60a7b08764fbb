/**
 * The monitors' backend by mode (src/monitors/runtime/create-monitor-backend.ts): until the Redis store and
 * schedule are part of the build, an instance with `store.redisUrl` answers every monitor endpoint 503 with
 * a message that says why, and the badge 404; the embedded backend opens in `server.dataDir`.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMonitorBackend, REDIS_NOT_YET } from '../../../src/monitors/runtime/create-monitor-backend.js';
import { unavailableMonitors } from '../../../src/monitors/runtime/monitor-operations.js';
import { watchSpecs } from '../../../src/graphql-server/watch-specs.js';
import { createMonitorsHandler } from '../../../src/rest/monitors/monitors-handler.js';
import type { Services } from '../../../src/services.js';

const servicesWith = (store: { redisUrl: string | null }) =>
  ({
    config: {
      store,
      server: { dataDir: mkdtempSync(join(tmpdir(), 'nd-backend-')) },
      monitors: { keepRuns: 100, keepEventsDays: 90 },
    },
    now: Date.now,
    logger: { error() {} },
  }) as unknown as Services;

describe('createMonitorBackend', () => {
  it('is the embedded store and schedule without store.redisUrl', () => {
    const outcome = createMonitorBackend(servicesWith({ redisUrl: null }), { specs: watchSpecs() });
    expect(outcome.ok).toBe(true);
  });

  it('says monitors are not available with store.redisUrl, and the endpoints answer 503 with that message', async () => {
    const outcome = createMonitorBackend(servicesWith({ redisUrl: 'redis://127.0.0.1:6379' }), { specs: watchSpecs() });
    expect(outcome).toEqual({ ok: false, message: REDIS_NOT_YET });
    const handler = createMonitorsHandler(unavailableMonitors(REDIS_NOT_YET));
    const auth = { ok: true as const, identity: { id: 's_key', kind: 'static' as const } };
    for (const [method, path] of [
      ['GET', '/api/v1/monitors'],
      ['POST', '/api/v1/monitors'],
      ['GET', '/api/v1/monitors/mon_x/history'],
    ]) {
      const request = new Request(`http://localhost${path}`, {
        method,
        ...(method === 'POST' ? { body: '{}', headers: { 'content-type': 'application/json' } } : {}),
      });
      const response = await handler.handle(request, new URL(request.url), auth);
      expect(response.status, `${method} ${path}`).toBe(503);
      expect((await response.json()).error).toBe(REDIS_NOT_YET);
    }
    const badge = await handler.badge(
      new Request('http://localhost/badge/mon_x/tls-rating.svg'),
      new URL('http://localhost/badge/mon_x/tls-rating.svg'),
    );
    expect(badge.status).toBe(404);
  });
});
