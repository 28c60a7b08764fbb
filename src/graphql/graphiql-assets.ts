/**
 * GraphiQL without a page of several megabytes: @graphql-yoga/render-graphiql renders one HTML document with its whole
 * bundle inlined (one script, one stylesheet — no CDN, so it works offline). Rendered once, on the first
 * browser visit; the script, the stylesheet and the favicon are moved out into content-hashed static assets
 * (static-assets.ts: compressed once, cached immutable), so the page itself is a few KB and a browser
 * downloads the bundle once per version instead of on every visit.
 */
import type { GraphiQLOptions } from 'graphql-yoga';
import { assetResponse, loadAsset, type StaticAsset } from '../platform/static-assets.js';

export const GRAPHIQL_ASSETS = '/graphiql/assets';

interface GraphiqlPage {
  readonly html: string;
  readonly assets: ReadonlyMap<string, StaticAsset>;
}

let built: Promise<GraphiqlPage> | undefined;

/** The small page for yoga's renderGraphiQL (the options are the same on every call: one render). */
export async function renderGraphiqlPage(options: GraphiQLOptions): Promise<string> {
  built ??= import('@graphql-yoga/render-graphiql')
    .then((m) => splitPage(m.renderGraphiQL(options)))
    .catch((error: unknown) => {
      built = undefined; // a later visit tries again
      throw error;
    });
  return (await built).html;
}

/** Serves the assets the page links to; 404 until the page has been rendered or for an unknown name. */
export async function graphiqlAssetResponse(request: Request, pathname: string): Promise<Response> {
  const asset = built ? (await built).assets.get(pathname) : undefined;
  return asset
    ? assetResponse(request, asset)
    : new Response('no such file (assets are named by their content; reload /graphql)\n', {
        status: 404,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
      });
}

/**
 * The page with its inline script and stylesheet moved into assets. An external script at the same place
 * runs at the same point of parsing as the inline one did.
 */
async function splitPage(html: string): Promise<GraphiqlPage> {
  // The inline script, the stylesheet, and the favicon the renderer inlines as a data: URL (most of the
  // page once the other two are out).
  const inline =
    /<script>([\s\S]*?)<\/script>|<style>([\s\S]*?)<\/style>|<link rel="icon" href="data:([\w/.+-]+);base64,([A-Za-z0-9+/=]*)"\s*\/?>/g;
  const parts = [...html.matchAll(inline)];
  const loaded = await Promise.all(
    parts.map(([, code, css, iconType, iconBase64]) =>
      code !== undefined
        ? loadAsset(GRAPHIQL_ASSETS, 'graphiql.js', 'text/javascript; charset=utf-8', code)
        : css !== undefined
          ? loadAsset(GRAPHIQL_ASSETS, 'graphiql.css', 'text/css; charset=utf-8', css)
          : loadAsset(GRAPHIQL_ASSETS, 'favicon.ico', iconType!, Buffer.from(iconBase64!, 'base64')),
    ),
  );
  const assets = new Map(loaded.map((asset) => [asset.path, asset]));
  let at = 0;
  const page = html.replace(inline, (_all, code: string | undefined, css: string | undefined) => {
    const asset = loaded[at++]!;
    if (code !== undefined) return `<script src="${asset.path}"></script>`;
    if (css !== undefined) return `<link rel="stylesheet" href="${asset.path}">`;
    return `<link rel="icon" href="${asset.path}">`;
  });
  return { html: page, assets };
}
