/**
 * The developer page (`GET /`) and the pages of the key form, rendered on the server as plain HTML:
 * no framework, no script, no external asset, so it works without JavaScript and without internet.
 * Everything about the endpoints is derived: the REST route table gives the tools and their GraphQL
 * documents, the documents' variable definitions give the query parameters, the schema gives the
 * descriptions, and `quota.costs` the prices — nothing here is kept by hand.
 * Pure functions: the caller supplies the origin, the form token, the key and the numbers.
 */
import { createHash } from 'node:crypto';
import { Kind, getOperationAST, print, type GraphQLSchema, type TypeNode } from 'graphql';
import type { RestRoute } from '../rest/routes.js';
import { KEY_PLACEHOLDER } from '../platform/auth.js';

export const GRAPHIQL_PATH = '/graphql';
export const OPENAPI_PATH = '/api/v1/openapi.json';
/** the developer page's form posts here */
export const KEYS_PATH = '/keys';
/** the hidden form field that carries the anti-forgery token */
export const FORM_TOKEN_FIELD = 'token';

export interface EndpointParameter {
  /** the query parameter, which is also the GraphQL variable's name */
  readonly name: string;
  readonly required: boolean;
  /** "string" or "integer" (the variable's GraphQL type, in words) */
  readonly type: string;
  readonly description: string | null;
}

export interface EndpointDoc {
  readonly tool: string;
  readonly path: string;
  /** the GraphQL root field the route runs */
  readonly graphqlField: string;
  readonly description: string | null;
  readonly parameters: readonly EndpointParameter[];
  readonly cost: number;
  /** the route's GraphQL document on one line, usable as a GraphQL request */
  readonly document: string;
}

export interface Allowance {
  readonly credits: number;
  readonly windowSeconds: number;
}

/** One row per REST route, in the route table's order. */
export function describeEndpoints(
  routes: Iterable<RestRoute>,
  schema: GraphQLSchema,
  costOf: (tool: string) => number,
): EndpointDoc[] {
  const queryFields = schema.getQueryType()?.getFields() ?? {};
  return [...routes].map((route) => {
    const operation = getOperationAST(route.document);
    const root = operation?.selectionSet.selections.find((s) => s.kind === Kind.FIELD);
    if (!operation || !root || root.kind !== Kind.FIELD)
      throw new Error(`route ${route.tool}: no root field to describe`);
    const field = queryFields[root.name.value];
    // Which argument of the root field each variable feeds: its description is the parameter's.
    const argumentOfVariable = new Map<string, string>();
    for (const argument of root.arguments ?? []) {
      if (argument.value.kind === Kind.VARIABLE) argumentOfVariable.set(argument.value.name.value, argument.name.value);
    }
    const parameters = (operation.variableDefinitions ?? []).map((definition): EndpointParameter => {
      const name = definition.variable.name.value;
      const argument = field?.args.find((a) => a.name === argumentOfVariable.get(name));
      return {
        name,
        required: definition.type.kind === Kind.NON_NULL_TYPE && definition.defaultValue === undefined,
        type: typeInWords(definition.type),
        description: argument?.description ?? null,
      };
    });
    return {
      tool: route.tool,
      path: `/api/v1/${route.tool}`,
      graphqlField: root.name.value,
      description: field?.description ? withoutRestName(field.description, route.tool) : null,
      parameters,
      cost: costOf(route.tool),
      document: print(route.document).replace(/\s+/g, ' ').trim(),
    };
  });
}

function typeInWords(type: TypeNode): string {
  if (type.kind === Kind.NON_NULL_TYPE) return typeInWords(type.type);
  if (type.kind === Kind.LIST_TYPE) return `list of ${typeInWords(type.type)}`;
  const words: Record<string, string> = { String: 'string', Int: 'integer', Float: 'number', Boolean: 'true or false' };
  return words[type.name.value] ?? type.name.value;
}

/** The schema's descriptions name their REST tool ("(REST: dns-lookup)"); in a table of REST tools that is noise. */
function withoutRestName(description: string, tool: string): string {
  // Tool names are [a-z-]: nothing to escape in a pattern.
  return description
    .replace(new RegExp(`\\s*\\(REST: ${tool}\\)`, 'g'), '')
    .replace(new RegExp(`,\\s*REST: ${tool}(?=[,)])`, 'g'), '')
    .trim();
}

/** "24 hours", "1 hour 30 minutes", "15 minutes", "90 seconds"; a part of a minute counts as a whole one. */
export function formatDuration(seconds: number): string {
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (seconds < 60 || (seconds < 120 && seconds % 60 !== 0)) return unit(seconds, 'second');
  const minutes = Math.ceil(seconds / 60);
  const hours = Math.floor(minutes / 60);
  if (hours === 0) return unit(minutes, 'minute');
  return minutes % 60 === 0 ? unit(hours, 'hour') : `${unit(hours, 'hour')} ${unit(minutes % 60, 'minute')}`;
}

/**
 * What each request costs, in a sentence: the most common price is "every other endpoint", the others
 * are named ("my-ip costs 1 credit, tls-configuration 4, every other endpoint 3").
 */
export function describeCosts(endpoints: readonly EndpointDoc[]): string {
  if (endpoints.length === 0) return '';
  const tally = new Map<number, number>();
  for (const e of endpoints) tally.set(e.cost, (tally.get(e.cost) ?? 0) + 1);
  const common = [...tally.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]![0];
  const credits = (n: number) => `${n} credit${n === 1 ? '' : 's'}`;
  const exceptions = endpoints.filter((e) => e.cost !== common).map((e) => `${e.tool} ${credits(e.cost)}`);
  if (exceptions.length === 0) return `every endpoint costs ${credits(common)}`;
  return `${exceptions.join(', ')}, every other endpoint ${credits(common)}`;
}

// Colours, checked against WCAG 2.2 contrast (1.4.3: 4.5:1 for text) by the page's tests.
export const PALETTE = {
  light: {
    text: '#1b1b1b',
    muted: '#4a4a4a',
    background: '#ffffff',
    surface: '#f2f2f2',
    link: '#0645ad',
    buttonText: '#ffffff',
    button: '#0645ad',
    border: '#767676',
  },
  dark: {
    text: '#e6e6e6',
    muted: '#bdbdbd',
    background: '#141414',
    surface: '#262626',
    link: '#8cb4ff',
    buttonText: '#141414',
    button: '#8cb4ff',
    border: '#8a8a8a',
  },
} as const;

const vars = (p: (typeof PALETTE)[keyof typeof PALETTE]) =>
  `--text:${p.text};--muted:${p.muted};--bg:${p.background};--surface:${p.surface};--link:${p.link};--button-text:${p.buttonText};--button:${p.button};--border:${p.border}`;

const STYLE = [
  `:root{${vars(PALETTE.light)};color-scheme:light dark}`,
  `@media (prefers-color-scheme:dark){:root{${vars(PALETTE.dark)}}}`,
  'body{margin:0 auto;max-width:72rem;padding:0 1rem 2rem;font:1rem/1.5 system-ui,sans-serif;color:var(--text);background:var(--bg)}',
  'a{color:var(--link)}',
  ':focus-visible{outline:3px solid var(--link);outline-offset:2px}',
  '.skip{position:absolute;left:-100vw}.skip:focus{position:static}',
  'code,pre{font-family:ui-monospace,monospace;background:var(--surface);border-radius:3px}',
  'code{padding:0 .2em}pre{padding:.75rem;overflow-x:auto}pre code{padding:0}',
  '.muted{color:var(--muted)}',
  '.scroll{overflow-x:auto}',
  'table{border-collapse:collapse;width:100%}',
  'caption{text-align:left;padding:.5rem 0;color:var(--muted)}',
  'th,td{border:1px solid var(--border);padding:.4rem .5rem;text-align:left;vertical-align:top}',
  'td ul{margin:0;padding-left:1.1rem}',
  'button{font:inherit;padding:.5rem 1rem;border:0;border-radius:4px;color:var(--button-text);background:var(--button);cursor:pointer}',
  '.key{font-size:1.15rem;word-break:break-all;padding:.75rem;display:block}',
].join('\n');

/** The style sheet is the page's only inline content; the CSP names it by hash (no 'unsafe-inline'). */
const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/** Response headers of every HTML page here. `no-store`: the pages carry a form token or a key. */
export function htmlHeaders(body: string): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'cache-control': 'no-store',
    'content-security-policy': `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
  };
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Escaped text with `backquoted` spans as code, as the schema's descriptions write them. */
function prose(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

function layout(title: string, body: string, options: { noindex?: boolean } = {}): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${options.noindex ? '<meta name="robots" content="noindex">\n' : ''}<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<a class="skip" href="#main">Skip to the content</a>
${body}
<footer><p class="muted">netdiag — a self-hostable network diagnostics API. <a href="${GRAPHIQL_PATH}">GraphiQL</a> · <a href="/docs">API reference</a> · <a href="${OPENAPI_PATH}">OpenAPI document</a></p></footer>
</body>
</html>
`;
}

function curl(origin: string, endpoint: EndpointDoc | undefined, key: string): string {
  if (!endpoint) return '';
  const query = sampleQuery(endpoint);
  const url = `${origin}${endpoint.path}`;
  const graphql = JSON.stringify({ query: endpoint.document });
  return [
    '# the key in a header',
    `curl -H 'x-api-key: ${key}' '${url}${query ? `?${query}` : ''}'`,
    '# the key as a query parameter, for clients that cannot set headers',
    `curl '${url}?${query ? `${query}&` : ''}api_key=${encodeURIComponent(key)}'`,
    '# the same check through GraphQL',
    `curl -H 'x-api-key: ${key}' -H 'content-type: application/json' \\\n     -d '${graphql}' ${origin}${GRAPHIQL_PATH}`,
  ].join('\n');
}

/**
 * The example tool: ip-info answers from the bundled IP data, so its example works on any instance, even
 * one without internet access (my-ip refuses the loopback or private address a local caller has).
 */
const EXAMPLE_TOOL = 'ip-info';

/** A filled-in query string for the examples: a name where the tool takes one, an address for ip-info. */
function sampleQuery(endpoint: EndpointDoc): string {
  const samples: Record<string, string> = {
    domain: 'example.com',
    host: 'example.com',
    target: endpoint.tool === EXAMPLE_TOOL ? '8.8.8.8' : 'example.com',
  };
  return endpoint.parameters
    .filter((p) => p.required)
    .map((p) => `${p.name}=${encodeURIComponent(samples[p.name] ?? 'VALUE')}`)
    .join('&');
}

/** The example endpoint: ip-info (see EXAMPLE_TOOL), else the first one. */
function exampleEndpoint(endpoints: readonly EndpointDoc[]): EndpointDoc | undefined {
  return endpoints.find((e) => e.tool === EXAMPLE_TOOL) ?? endpoints[0];
}

function endpointRow(e: EndpointDoc): string {
  const parameters =
    e.parameters.length === 0
      ? '<td>none</td>'
      : `<td><ul>${e.parameters
          .map(
            (p) =>
              `<li><code>${escapeHtml(p.name)}</code> (${escapeHtml(p.type)}, ${p.required ? 'required' : 'optional'})${
                p.description ? ` — ${prose(p.description)}` : ''
              }</li>`,
          )
          .join('')}</ul></td>`;
  return `<tr><th scope="row"><code>GET ${escapeHtml(e.path)}</code></th>${parameters}<td>${e.cost}</td><td>${
    e.description ? prose(e.description) : ''
  } <span class="muted">GraphQL field <code>${escapeHtml(e.graphqlField)}</code>.</span></td></tr>`;
}

function allowanceSentence(allowance: Allowance, endpoints: readonly EndpointDoc[]): string {
  const costs = describeCosts(endpoints);
  const window = formatDuration(allowance.windowSeconds);
  return `${allowance.credits} credits per rolling ${window} (a charge expires ${window} after it was made)${
    costs ? `; ${escapeHtml(costs)}` : ''
  }`;
}

export interface DeveloperPageModel {
  /** scheme, host and port the page was asked on, for the examples */
  readonly origin: string;
  readonly endpoints: readonly EndpointDoc[];
  readonly allowance: Allowance;
  /** keys one client address (IPv6: one /48) may obtain per rolling 24 h; 0 = the form is off */
  readonly issuePerDay: number;
  readonly formToken: string;
}

export function renderDeveloperPage(m: DeveloperPageModel): string {
  const example = exampleEndpoint(m.endpoints);
  const form =
    m.issuePerDay > 0
      ? `<p id="key-terms">A key carries ${allowanceSentence(m.allowance, m.endpoints)}. It is shown once, on the next page: the service does not keep it. One address (an IPv6 /48 network counts as one) may obtain ${m.issuePerDay} key${m.issuePerDay === 1 ? '' : 's'} per rolling 24 hours.</p>
<form method="post" action="${KEYS_PATH}" aria-describedby="key-terms">
<input type="hidden" name="${FORM_TOKEN_FIELD}" value="${escapeHtml(m.formToken)}">
<button type="submit">Get a free API key</button>
</form>`
      : `<p>This instance does not issue keys from this page. Ask its operator for one: keys carry ${allowanceSentence(m.allowance, m.endpoints)}.</p>`;
  const body = `<header>
<h1>netdiag</h1>
<p>A network diagnostics API: what is wrong with this domain, mail set-up, certificate or server? Every check answers JSON.</p>
<nav aria-label="On this page"><ul>
<li><a href="#about">What it does</a></li>
<li><a href="#key">Get a key</a></li>
<li><a href="#usage">Using the key</a></li>
<li><a href="#endpoints">Endpoints</a></li>
<li><a href="#explore">GraphQL and OpenAPI</a></li>
</ul></nav>
</header>
<main id="main">
<section aria-labelledby="about">
<h2 id="about">What it does</h2>
<p>Each check is an HTTP <code>GET</code> under <code>/api/v1/</code> that answers one JSON envelope: <code>{"ok": true, "data": {…}, "meta": {"tool": "&lt;endpoint&gt;", "version": "v1"}}</code>, or <code>"ok": false</code> with an <code>"error"</code> message when the check could not run. A finding — an expired certificate, a closed port, a missing SPF record — is a success with a status field. The same checks are fields of one GraphQL schema, so one request can combine several.</p>
<p>Every request needs an API key and costs credits: a key has ${allowanceSentence(m.allowance, m.endpoints)}. Responses carry <code>RateLimit</code> headers with what is left.</p>
</section>
<section aria-labelledby="key">
<h2 id="key">Get a free API key</h2>
${form}
</section>
<section aria-labelledby="usage">
<h2 id="usage">Using the key</h2>
<pre><code>${escapeHtml(curl(m.origin, example, KEY_PLACEHOLDER))}</code></pre>
</section>
<section aria-labelledby="endpoints">
<h2 id="endpoints">Endpoints</h2>
<div class="scroll" role="region" aria-labelledby="endpoints-caption" tabindex="0">
<table>
<caption id="endpoints-caption">${m.endpoints.length} endpoints: parameters go in the query string; credits are charged per request.</caption>
<thead><tr><th scope="col">Endpoint</th><th scope="col">Parameters</th><th scope="col">Credits</th><th scope="col">What it checks</th></tr></thead>
<tbody>
${m.endpoints.map(endpointRow).join('\n')}
</tbody>
</table>
</div>
</section>
<section aria-labelledby="explore">
<h2 id="explore">GraphQL and OpenAPI</h2>
<ul>
<li><a href="${GRAPHIQL_PATH}">GraphiQL</a>, the GraphQL explorer: put your key in its Headers tab as <code>{"x-api-key": "${KEY_PLACEHOLDER}"}</code>. An operation costs the sum of the checks it selects.</li>
<li><a href="/docs">The API reference</a>, every REST endpoint with its parameters and answers, and <a href="${OPENAPI_PATH}">the OpenAPI document</a> behind it, for client generators.</li>
<li><a href="/docs#/Jobs">Jobs</a>: one tool over many targets in the background — <code>POST /api/v1/jobs</code> with the tool and its targets, then the progress, the results as NDJSON or CSV, or a stream of events; priced per target (the guide: <code>docs/jobs.md</code> in the source).</li>
<li><a href="/docs#/Monitors">Monitors</a>: checks run over targets on a schedule — <code>POST /api/v1/monitors</code> with the checks, targets and interval, then the history, and an event on a signed webhook, as JSON or a stream when something changes; a badge for public ones; priced per run (the guide: <code>docs/monitors.md</code> in the source).</li>
<li><a href="/report">The report page</a>: every verdict about a domain (TLS and HTTP grades, DNSSEC, mail, registration) on one page a person reads, with your key.</li>
</ul>
</section>
</main>`;
  return layout('netdiag — network diagnostics API', body);
}

export interface IssuedKeyPageModel {
  readonly origin: string;
  readonly key: string;
  readonly endpoints: readonly EndpointDoc[];
  readonly allowance: Allowance;
  /** further keys this client address may obtain in the rolling 24 h */
  readonly keysLeftForAddress: number;
}

export function renderIssuedKeyPage(m: IssuedKeyPageModel): string {
  const body = `<main id="main">
<h1>Your API key</h1>
<p><code class="key" id="api-key">${escapeHtml(m.key)}</code></p>
<p><strong>Copy it now.</strong> This page is the only place it is shown: the service does not store keys, it can only verify them.</p>
<h2>What it carries</h2>
<p>${allowanceSentence(m.allowance, m.endpoints)}. Every response's <code>RateLimit</code> headers say how many credits are left.</p>
<h2>Try it</h2>
<pre><code>${escapeHtml(curl(m.origin, exampleEndpoint(m.endpoints), m.key))}</code></pre>
<p class="muted">This address may obtain ${m.keysLeftForAddress} more key${m.keysLeftForAddress === 1 ? '' : 's'} in the rolling 24 hours.</p>
<p><a href="/">Back to the developer page</a></p>
</main>`;
  return layout('Your netdiag API key', body, { noindex: true });
}

/** A refusal or failure of the key form, in words, with the way back. */
export function renderMessagePage(title: string, paragraphs: readonly string[]): string {
  const body = `<main id="main">
<h1>${escapeHtml(title)}</h1>
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
<p><a href="/">Back to the developer page</a></p>
</main>`;
  return layout(`${title} — netdiag`, body, { noindex: true });
}
