/**
 * GraphiQL's page at /graphql for browsers: a few hundred bytes of markup over the script and style sheet the
 * build cut out of @graphql-yoga/render-graphiql's page (scripts/build-web-assets.mjs), served as prepared
 * assets by any worker from the first visit (./assets.ts). The options yoga passes (title, default
 * operation, headers) travel in a JSON block the script reads, so the script is one file whatever they are.
 */
import type { GraphiQLOptions } from 'graphql-yoga';
import { escapeHtml } from './developer-page.js';
import type { WebAssets } from './assets.js';

/** yoga's renderGraphiQL for these assets. */
export function graphiqlPage(assets: WebAssets): (options: GraphiQLOptions) => string {
  return (options) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(options.title ?? 'GraphiQL')}</title>
<link rel="icon" href="${assets.url('favicon.svg')}" type="image/svg+xml">
<link rel="stylesheet" href="${assets.url('graphiql.css')}">
</head>
<body id="body" class="no-focus-outline">
<noscript>GraphiQL needs JavaScript. Without it, POST operations to /graphql (docs/getting-started.md).</noscript>
<div id="root"></div>
<script type="application/json" id="graphiql-options">${jsonInHtml(options)}</script>
<script src="${assets.url('graphiql.js')}"></script>
</body>
</html>
`;
}

/** JSON that cannot end the element holding it: every "<" escaped (JSON.parse reads \u003c back). */
export function jsonInHtml(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}
