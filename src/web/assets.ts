/**
 * The web assets the build prepared (scripts/build-web-assets.mjs): the report page's script and style sheet,
 * GraphiQL's, and the favicon, each a content-hashed file in `dist/web/` with its .gz and .br beside it, listed
 * in `dist/web/manifest.json`. Every worker reads the same manifest, so any worker answers any asset from the
 * first visit, and no visitor waits for a compression (docs/report.md "Assets"). The tests, which run the
 * sources, read the same directory: test/global-setup.ts builds dist/ before the suite.
 *
 * A file is read when a client first asks for it in an encoding, and kept: a worker holds only the encodings
 * its clients use (most browsers take brotli), at most one copy of each.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { projectFile } from '../project-files.js';
import { type AssetEncoding, encodedAssetResponse } from '../platform/static-assets.js';

/** The URL prefix of every prepared asset. */
export const ASSETS_PATH = '/assets';

/** The icon browsers ask for by themselves, at a fixed address. */
export const FAVICON_PATH = '/favicon.ico';

/** The names the build gives (the manifest's keys). */
export type AssetName = 'report.js' | 'report.css' | 'graphiql.js' | 'graphiql.css' | 'favicon.svg' | 'favicon.ico';

/** One entry of the manifest, as scripts/build-web-assets.mjs writes it. */
interface ManifestEntry {
  readonly file: string;
  readonly type: string;
  readonly hash: string;
}

export interface WebAssets {
  /** the URL path of an asset, e.g. /assets/report.<hash>.js */
  url(name: AssetName): string;
  /** true for a path under ASSETS_PATH */
  handles(pathname: string): boolean;
  /** the asset at that path (404 for a name the build did not make), or the favicon at FAVICON_PATH */
  respond(request: Request, pathname: string): Promise<Response>;
}

const SUFFIX: Record<Exclude<AssetEncoding, null>, string> = { br: '.br', gzip: '.gz' };

export function createWebAssets(dir: string = projectFile('dist/web')): WebAssets {
  let manifest: ReadonlyMap<string, ManifestEntry> | undefined;
  const byFile = new Map<string, ManifestEntry>();
  const read = new Map<string, Promise<Uint8Array<ArrayBuffer>>>();

  /** Read at first use, so that a process that serves no page (a benchmark's app) never needs the build. */
  const entries = (): ReadonlyMap<string, ManifestEntry> => {
    if (manifest) return manifest;
    let parsed: { assets: Record<string, ManifestEntry> };
    try {
      parsed = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    } catch (e) {
      throw new Error(
        `the web assets are not built (${(e as Error).message}): run \`npm run build\` (npm start and the tests build them when stale)`,
      );
    }
    manifest = new Map(Object.entries(parsed.assets));
    for (const entry of manifest.values()) byFile.set(entry.file, entry);
    return manifest;
  };

  const entryOf = (name: AssetName): ManifestEntry => {
    const entry = entries().get(name);
    if (!entry) throw new Error(`the web assets' manifest in ${dir} has no ${name}: run \`npm run build\``);
    return entry;
  };

  const serve = (request: Request, entry: ManifestEntry, cacheControl?: string) =>
    encodedAssetResponse(
      request,
      {
        type: entry.type,
        etag: `"${entry.hash}"`,
        body: (encoding) => {
          const file = entry.file + (encoding ? SUFFIX[encoding] : '');
          let body = read.get(file);
          if (!body) {
            body = readFile(join(dir, file)).then((b) => new Uint8Array(b));
            body.catch(() => read.delete(file)); // a later request tries again
            read.set(file, body);
          }
          return body;
        },
      },
      cacheControl,
    );

  return {
    url: (name) => `${ASSETS_PATH}/${entryOf(name).file}`,
    handles: (pathname) => pathname.startsWith(`${ASSETS_PATH}/`),
    async respond(request, pathname) {
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        return new Response('use GET\n', {
          status: 405,
          headers: { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' },
        });
      }
      // at a fixed address: revalidated daily rather than kept for a year
      if (pathname === FAVICON_PATH) return serve(request, entryOf('favicon.ico'), 'public, max-age=86400');
      entries();
      const entry = byFile.get(pathname.slice(ASSETS_PATH.length + 1));
      return entry
        ? serve(request, entry)
        : new Response('no such file (assets are named by their content: reload the page)\n', {
            status: 404,
            headers: { 'content-type': 'text/plain; charset=utf-8' },
          });
    },
  };
}
