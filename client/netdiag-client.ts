/**
 * A small typed client of the REST API, on the types `npm run client:types` generates
 * (client/netdiag-api.ts): paths, query parameters and the `data` of each answer are checked by the
 * compiler. Copy it into a project, or use the generated types with openapi-fetch and the like.
 */
import type { paths } from './netdiag-api.js';

/** The GET tools (the job and monitor routes and the badges take other methods and answer other types). */
export type ToolPath = Exclude<keyof paths, `/api/v1/jobs${string}` | `/api/v1/monitors${string}` | `/badge/${string}`>;
export type Query<P extends ToolPath> = paths[P]['get']['parameters']['query'];
export type Data<P extends ToolPath> = paths[P]['get']['responses'][200]['content']['application/json']['data'];

/** An answer that is not a 200: the envelope's error, with the HTTP status. */
export class NetdiagError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function createNetdiagClient(baseUrl: string, apiKey: string) {
  return {
    async get<P extends ToolPath>(path: P, query: Query<P>): Promise<Data<P>> {
      const url = new URL(path, baseUrl);
      for (const [name, value] of Object.entries(query ?? {})) {
        if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
      }
      const res = await fetch(url, { headers: { 'x-api-key': apiKey } });
      const body = (await res.json()) as { ok: true; data: Data<P> } | { ok: false; error: string };
      if (!body.ok) throw new NetdiagError(res.status, body.error);
      return body.data;
    },
  };
}
