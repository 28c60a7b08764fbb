/**
 * The monitor endpoints under /api/v1/monitors and the badges under /badge (the endpoints of
 * docs/contract/monitors.md): an adapter of the monitors' port
 * (src/monitors/runtime/monitor-operations.ts) to HTTP.
 * JSON answers are in the v1 envelope (meta.tool "monitors"); the event stream (SSE) and the badge (SVG)
 * are not. A store that does not answer is a 503 with Retry-After.
 */
import { NetdiagError } from '../../errors.js';
import type { MonitorsAnswer, MonitorsPort } from '../../monitors/runtime/monitor-operations.js';
import { BADGE_CONTENT_TYPE } from '../../monitors/badge.js';
import type { AuthOutcome } from '../../platform/auth.js';
import { API_CORS_HEADERS } from '../../platform/cors.js';
import { envelopeResponse } from '../envelope.js';
import { enterResource, eventStreamResponse } from '../resource-answers.js';
import { readJsonBody } from '../jobs/read-json-body.js';

const TOOL = 'monitors';
export const MONITORS_PATH = '/api/v1/monitors';
export const BADGE_PREFIX = '/badge/';
/** a monitor's body is at most 1 MiB (docs/contract/monitors.md, its endpoints) */
export const MAX_MONITOR_BYTES = 1024 * 1024;
/** a monitor's fields, targets (texts or objects of a few parameters) and the shared parameters */
const BODY_BOUNDS = { maxMembers: 64, maxDepth: 4 };
const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

type MonitorsPath =
  | { kind: 'collection' }
  | { kind: 'monitor'; id: string }
  | { kind: 'run'; id: string }
  | { kind: 'history'; id: string }
  | { kind: 'events'; id: string };

export function monitorsPathOf(pathname: string): MonitorsPath | null {
  if (pathname === MONITORS_PATH || pathname === `${MONITORS_PATH}/`) return { kind: 'collection' };
  const m = /^\/api\/v1\/monitors\/([^/]+)(?:\/(run|history|events))?\/?$/.exec(pathname);
  if (!m) return null;
  const id = m[1]!;
  return m[2] === undefined ? { kind: 'monitor', id } : { kind: m[2] as 'run' | 'history' | 'events', id };
}

/** true for the paths under /api/v1/monitors */
export function isMonitorsPath(pathname: string): boolean {
  return pathname.startsWith(MONITORS_PATH) && monitorsPathOf(pathname) !== null;
}

/** `/badge/{monitorId}/{check}.svg`, or null */
export function badgePathOf(pathname: string): { id: string; check: string } | null {
  const m = /^\/badge\/([A-Za-z0-9_-]{1,64})\/([a-z0-9-]{1,64})\.svg$/.exec(pathname);
  return m ? { id: m[1]!, check: m[2]! } : null;
}

const ALLOWED: Record<MonitorsPath['kind'], string> = {
  collection: 'GET, POST',
  monitor: 'GET, PATCH, DELETE',
  run: 'POST',
  history: 'GET',
  events: 'GET',
};

function answer<T>(outcome: MonitorsAnswer<T>, okStatus: number, headers: Record<string, string> = {}): Response {
  return outcome.ok
    ? envelopeResponse(TOOL, okStatus, { data: outcome.data }, { headers: { ...outcome.headers, ...headers } })
    : envelopeResponse(TOOL, outcome.status, { error: outcome.error }, { headers: outcome.headers ?? {} });
}

function numberParam(url: URL, name: string): number | null {
  const text = url.searchParams.get(name);
  return text === null ? null : Number(text);
}

export function createMonitorsHandler(monitors: MonitorsPort) {
  async function readBody(request: Request): Promise<{ ok: true; value: unknown } | { ok: false; response: Response }> {
    const body = await readJsonBody(request, MAX_MONITOR_BYTES, BODY_BOUNDS);
    return body.ok ? body : { ok: false, response: envelopeResponse(TOOL, body.status, { error: body.error }) };
  }

  async function events(request: Request, url: URL, id: string, keyId: string): Promise<Response> {
    const accept = request.headers.get('accept') ?? '';
    if (!accept.includes('text/event-stream'))
      return answer(
        await monitors.events(id, keyId, {
          since: url.searchParams.get('since'),
          before: url.searchParams.get('before'),
          limit: numberParam(url, 'limit'),
        }),
        200,
      );
    const outcome = await monitors.follow(id, keyId, request.headers.get('last-event-id'), request.signal);
    if (!outcome.ok) return answer(outcome, 200);
    return eventStreamResponse(outcome.data);
  }

  async function route(request: Request, url: URL, auth: AuthOutcome): Promise<Response> {
    const path = monitorsPathOf(url.pathname);
    if (!path) return envelopeResponse(TOOL, 404, { error: `no such path: ${url.pathname.slice(0, 128)}` });
    const entry = enterResource(TOOL, request, ALLOWED[path.kind], auth);
    if (entry.answer) return entry.answer;
    const { method, identity } = entry;
    const keyId = identity.id;
    const caller = { identity, request, url };
    switch (path.kind) {
      case 'collection': {
        if (method === 'GET')
          return answer(await monitors.list(keyId, numberParam(url, 'limit'), url.searchParams.get('cursor')), 200);
        const body = await readBody(request);
        if (!body.ok) return body.response;
        const outcome = await monitors.create(body.value, caller);
        return answer(outcome, 201, outcome.ok ? { location: outcome.data.links.self } : {});
      }
      case 'monitor': {
        if (method === 'DELETE') {
          const outcome = await monitors.remove(path.id, keyId);
          return outcome.ok ? new Response(null, { status: 204, headers: API_CORS_HEADERS }) : answer(outcome, 204);
        }
        if (method === 'PATCH') {
          const body = await readBody(request);
          if (!body.ok) return body.response;
          return answer(await monitors.update(path.id, body.value, caller), 200);
        }
        return answer(await monitors.get(path.id, keyId), 200);
      }
      case 'run':
        return answer(await monitors.runNow(path.id, keyId), 202);
      case 'history':
        return answer(
          await monitors.history(path.id, keyId, {
            target: url.searchParams.get('target'),
            check: url.searchParams.get('check'),
            limit: numberParam(url, 'limit'),
            before: url.searchParams.get('before'),
          }),
          200,
        );
      case 'events':
        return events(request, url, path.id, keyId);
    }
  }

  async function badge(request: Request, url: URL): Promise<Response> {
    const path = badgePathOf(url.pathname);
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const notFound = () =>
      new Response('no such badge: a public monitor and one of its checks\n', {
        status: 404,
        headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
      });
    if (!path) return notFound();
    if (method !== 'GET') return new Response(null, { status: 405, headers: { allow: 'GET' } });
    const found = await monitors.badge(path.id, path.check, url.searchParams.get('target'));
    if (!found) return notFound();
    const headers = {
      'access-control-allow-origin': '*',
      'cache-control': found.cacheControl,
      etag: found.etag,
    };
    const match = request.headers.get('if-none-match');
    if (match?.split(',').some((tag) => tag.trim() === found.etag)) return new Response(null, { status: 304, headers });
    return new Response(request.method === 'HEAD' ? null : found.svg, {
      status: 200,
      headers: { ...headers, 'content-type': BADGE_CONTENT_TYPE },
    });
  }

  const guarded =
    <A extends unknown[]>(handler: (...args: A) => Promise<Response>) =>
    async (...args: A): Promise<Response> => {
      try {
        return await handler(...args);
      } catch (e) {
        if (!(e instanceof NetdiagError)) throw e;
        const headers: Record<string, string> =
          e.status === 503 ? { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS) } : {};
        return envelopeResponse(TOOL, e.status, { error: e.message }, { headers });
      }
    };

  return { handle: guarded(route), badge: guarded(badge) };
}
