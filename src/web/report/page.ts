/**
 * `GET /report`: the report page's markup, rendered on the server — the form (a GET form, so the address
 * `/report?domain=…&view=…` is the report to share), the key field (no `name`: it never goes into the
 * address; the script keeps it in sessionStorage and sends it as `x-api-key`), one empty section per part
 * of the report, and the operation the script runs, in a JSON block. The script and the style sheet are
 * prepared assets (src/web/assets.ts); the page allows nothing else (a strict CSP: no inline script or
 * style). Everything the checks answer is drawn by the script, as text (docs/report.md "Hostile data").
 * The JSON block sits in the head, before the script, and the script is `async`: it starts the operation
 * as soon as it is loaded, while the body is still being parsed, and draws once it is (docs/report.md
 * "Performance").
 */
import { escapeHtml } from '../developer-page.js';
import type { WebAssets } from '../assets.js';
import { jsonInHtml } from '../graphiql-page.js';
import { REPORT_VIEWS, sectionsOf, type ReportView } from './sections.js';

export const REPORT_PATH = '/report';

/** The longest domain the form takes (RFC 1035 §2.3.4: 253 characters in text form). */
export const MAX_DOMAIN_LENGTH = 253;

/**
 * The page's policy: its own origin only, no inline script or style, no eval, no plugins, not framed.
 * Styles come from the style sheet and CSSOM, which `style-src 'self'` allows.
 */
export const REPORT_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** What the script reads from the page (the `#report-setup` block). */
export interface ReportSetup {
  readonly domain: string;
  readonly view: ReportView;
  /** the GraphQL operation to POST to /graphql with `{ domain }` */
  readonly operation: string;
  /** the GraphQL endpoint */
  readonly endpoint: string;
  /** web.publicReports: whether the operation runs without a key */
  readonly publicReports: boolean;
}

const VIEW_LABELS: Record<ReportView, string> = { all: 'Website and mail', web: 'Website', mail: 'Mail' };

export function renderReportPage(options: {
  assets: WebAssets;
  domain: string;
  view: ReportView;
  operation: string;
  publicReports: boolean;
}): string {
  const { assets, domain, view } = options;
  const setup: ReportSetup = {
    domain,
    view,
    operation: options.operation,
    endpoint: '/graphql',
    publicReports: options.publicReports,
  };
  const views = REPORT_VIEWS.map(
    (v) =>
      `<label class="choice"><input type="radio" name="view" value="${v}"${v === view ? ' checked' : ''}> ${VIEW_LABELS[v]}</label>`,
  ).join('\n');
  const sections = domain
    ? sectionsOf(view)
        .map(
          (
            s,
          ) => `<section class="section" id="${s.id}" data-part="${s.part}" aria-labelledby="${s.id}-title" aria-busy="true">
<h2 id="${s.id}-title">${escapeHtml(s.title)}</h2>
<p class="about">${escapeHtml(s.about)}</p>
<p class="state" data-state="waiting">Waiting for the checks to start.</p>
<div class="body"></div>
</section>`,
        )
        .join('\n')
    : '';
  const keyHint = options.publicReports
    ? 'Optional on this instance: without a key, a report runs on the allowance of your address.'
    : 'A report needs an API key (the developer page gives one).';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${domain ? `${escapeHtml(domain)} — netdiag report` : 'netdiag report'}</title>
<link rel="stylesheet" href="${assets.url('report.css')}">
<script type="application/json" id="report-setup">${jsonInHtml(setup)}</script>
<script src="${assets.url('report.js')}" async></script>
<link rel="icon" href="${assets.url('favicon.svg')}" type="image/svg+xml">
</head>
<body>
<a class="skip" href="#report">Skip to the report</a>
<header class="masthead">
<p class="brand"><a href="/">netdiag</a></p>
<h1>${domain ? `Report for <span class="domain">${escapeHtml(domain)}</span>` : 'Report'}</h1>
</header>
<main id="report">
<form class="ask" method="get" action="${REPORT_PATH}">
<div class="field">
<label for="domain">Domain</label>
<input id="domain" name="domain" type="text" value="${escapeHtml(domain)}" required maxlength="${MAX_DOMAIN_LENGTH}" autocomplete="off" autocapitalize="none" spellcheck="false" placeholder="example.com">
</div>
<fieldset class="views">
<legend>Report on</legend>
${views}
</fieldset>
<div class="field">
<label for="api-key">API key</label>
<input id="api-key" type="password" autocomplete="off" spellcheck="false" aria-describedby="api-key-hint">
<p class="hint" id="api-key-hint">${keyHint} Kept in this tab only and sent as a header, never in the address.</p>
</div>
<button type="submit">Run the report</button>
</form>
<noscript><p class="notice">The report runs in your browser and needs JavaScript. The same checks answer over the API: <a href="/docs">the API reference</a>.</p></noscript>
<p class="status" id="report-status" role="status" aria-live="polite"></p>
${
  domain
    ? `<section class="verdicts" id="verdicts" aria-labelledby="verdicts-title">
<h2 id="verdicts-title">Verdicts</h2>
<ul class="verdict-list"></ul>
</section>
${sections}`
    : '<p class="intro">A report runs the website, TLS, HTTP security, DNSSEC, mail and registration checks of a domain and shows each as soon as it is done. Its address can be shared: the key is never part of it.</p>'
}
</main>
</body>
</html>
`;
}

/** The page's response headers. `no-cache`: the page is the same for everyone, but must follow a new build. */
export function reportHeaders(body: string): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'cache-control': 'no-cache',
    'content-security-policy': REPORT_CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  };
}
