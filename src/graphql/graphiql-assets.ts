/**
 * GraphiQL without a 9 MB page: @graphql-yoga/render-graphiql renders one HTML document with its whole
 * bundle inlined (one script, one stylesheet — no CDN, so it works offline). Rendered once, on the first
 * browser visit; the script and the stylesheet are moved out into content-hashed static assets
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
  built ??= import('@graphql-yoga/render-graphiql').then((m) => splitPage(m.renderGraphiQL(options)));
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

function splitPage(html: string): GraphiqlPage {
  const assets = new Map<string, StaticAsset>();
  const keep = (asset: StaticAsset) => {
    assets.set(asset.path, asset);
    return asset.path;
  };
  // An external script at the same place runs at the same point of parsing as the inline one did.
  const page = html
    .replace(
      /<script>([\s\S]*?)<\/script>/g,
      (_all, code: string) =>
        `<script src="${keep(loadAsset(GRAPHIQL_ASSETS, 'graphiql.js', 'text/javascript; charset=utf-8', code))}"></script>`,
    )
    .replace(
      /<style>([\s\S]*?)<\/style>/g,
      (_all, css: string) =>
        `<link rel="stylesheet" href="${keep(loadAsset(GRAPHIQL_ASSETS, 'graphiql.css', 'text/css; charset=utf-8', css))}">`,
    );
  return { html: page, assets };
}
