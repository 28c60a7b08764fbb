/**
 * `GET /docs`: the interactive API reference — Swagger UI (swagger-ui-dist, served from this service, so
 * it works offline) over the generated OpenAPI document at /api/v1/openapi.json. The page itself is a few
 * hundred bytes; Swagger UI's script and stylesheet are content-hashed static assets (static-assets.ts),
 * loaded on the first visit and cached afterwards. No key needed; the unkeyed budget applies (app.ts).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { assetResponse, loadAsset, loadFileAsset, type StaticAsset } from '../platform/static-assets.js';

export const DOCS_PATH = '/docs';
const ASSETS = `${DOCS_PATH}/assets`;

interface DocsAssets {
  readonly page: string;
  readonly byPath: ReadonlyMap<string, StaticAsset>;
}

async function buildDocs(openApiPath: string): Promise<DocsAssets> {
  const dist = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const [script, style, init] = await Promise.all([
    loadFileAsset(ASSETS, 'swagger-ui-bundle.js', 'text/javascript; charset=utf-8', join(dist, 'swagger-ui-bundle.js')),
    loadFileAsset(ASSETS, 'swagger-ui.css', 'text/css; charset=utf-8', join(dist, 'swagger-ui.css')),
    // the start-up script is a file of its own, so that the page's CSP allows no inline script
    loadAsset(
      ASSETS,
      'init.js',
      'text/javascript; charset=utf-8',
      `window.ui = SwaggerUIBundle({ url: ${JSON.stringify(openApiPath)}, dom_id: '#reference', deepLinking: true, tryItOutEnabled: false });\n`,
    ),
  ]);
  const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>netdiag API reference</title>
<link rel="stylesheet" href="${style.path}">
</head>
<body>
<div id="reference"></div>
<script src="${script.path}"></script>
<script src="${init.path}"></script>
</body>
</html>
`;
  return { page, byPath: new Map([script, style, init].map((a) => [a.path, a])) };
}

export function createDocsRoutes(openApiPath: string) {
  let docs: Promise<DocsAssets> | undefined; // read and compressed on the first visit, not at start
  const load = () => {
    docs ??= buildDocs(openApiPath).catch((error: unknown) => {
      docs = undefined; // a later visit tries again
      throw error;
    });
    return docs;
  };
  return {
    /** the page (counted against the unkeyed budget), not its content-hashed assets */
    isPage: (pathname: string) => pathname === DOCS_PATH || pathname === `${DOCS_PATH}/`,
    matches: (pathname: string) =>
      pathname === DOCS_PATH || pathname === `${DOCS_PATH}/` || pathname.startsWith(`${ASSETS}/`),
    async respond(request: Request, pathname: string): Promise<Response> {
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        return new Response('use GET\n', {
          status: 405,
          headers: { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' },
        });
      }
      const { page, byPath } = await load();
      if (pathname.startsWith(`${ASSETS}/`)) {
        const asset = byPath.get(pathname);
        return asset
          ? assetResponse(request, asset)
          : new Response('no such file (assets are named by their content; reload /docs)\n', {
              status: 404,
              headers: { 'content-type': 'text/plain; charset=utf-8' },
            });
      }
      return new Response(request.method === 'HEAD' ? null : page, {
        headers: {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-cache',
          'content-security-policy':
            "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        },
      });
    },
  };
}
