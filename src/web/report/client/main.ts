/**
 * The report page's script: runs the page's one GraphQL operation (src/web/report/operation.ts) with
 * `Accept: multipart/mixed`, and draws each section as its deferred part arrives (meros reads the parts).
 * The key lives in sessionStorage and travels as `x-api-key`, never in the address. Everything drawn goes
 * through ./dom.ts, as text.
 */
import { meros } from 'meros/browser';
import { fieldOf, REPORT_PARTS, REPORT_SECTIONS } from '../sections.js';
import { verdictsOf, websitePart, type Verdict } from '../verdicts.js';
import { type Data, fill, h, isObject, list, text } from './dom.js';
import { badge, rawAnswer, toneOf } from './render/common.js';
import { checkSection, checksTable, compositeSummary } from './render/composite.js';
import { renderDnssec } from './render/dnssec-chain.js';
import { renderMail } from './render/mail.js';
import { renderObservatory } from './render/observatory.js';
import { renderRegistration } from './render/registration.js';
import { renderTls } from './render/tls.js';

interface Setup {
  readonly domain: string;
  readonly view: string;
  readonly operation: string;
  readonly endpoint: string;
  readonly publicReports: boolean;
}

interface GraphQLError {
  readonly message?: string;
  readonly path?: readonly (string | number)[];
  readonly extensions?: { readonly code?: string };
}

interface Payload {
  readonly data?: Data | null;
  readonly errors?: readonly GraphQLError[];
  readonly incremental?: readonly { data?: Data | null; errors?: readonly GraphQLError[]; label?: string }[];
  readonly hasNext?: boolean;
}

const KEY_STORAGE = 'netdiag-api-key';

function storedKey(): string {
  try {
    return sessionStorage.getItem(KEY_STORAGE) ?? '';
  } catch {
    return ''; // storage refused (a private window's settings): the key lives in the field only
  }
}

function storeKey(key: string): void {
  try {
    if (key) sessionStorage.setItem(KEY_STORAGE, key);
    else sessionStorage.removeItem(KEY_STORAGE);
  } catch {
    // as above
  }
}

const statusLine = () => document.getElementById('report-status');
const say = (message: string) => {
  const line = statusLine();
  if (line) line.textContent = message;
};

function sectionElements(part?: string): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>('section.section')].filter((s) => !part || s.dataset.part === part);
}

function setState(section: HTMLElement, state: string, words: string): void {
  const line = section.querySelector<HTMLElement>('.state');
  if (line) {
    line.dataset.state = state;
    line.textContent = words;
  }
  section.dataset.state = state;
  if (state !== 'running' && state !== 'waiting') section.setAttribute('aria-busy', 'false');
}

/** The verdict list: one item per section, a placeholder until its part arrives. */
function showVerdict(verdict: Verdict | { section: string; title: string; pending: string }): void {
  const listElement = document.querySelector('.verdict-list');
  if (!listElement) return;
  const item =
    'pending' in verdict
      ? h(
          'li',
          { class: 'verdict tone-neutral', 'data-section': verdict.section },
          h(
            'a',
            { href: `#${verdict.section}` },
            h('span', { class: 'verdict-title' }, verdict.title),
            h('span', { class: 'verdict-value' }, '…'),
            h('span', { class: 'verdict-detail' }, verdict.pending),
          ),
        )
      : h(
          'li',
          { class: `verdict tone-${toneOf(verdict.severity)}`, 'data-section': verdict.section },
          h(
            'a',
            { href: `#${verdict.section}` },
            h('span', { class: 'verdict-title' }, verdict.title),
            h('span', { class: 'verdict-value' }, verdict.value),
            h('span', { class: 'verdict-detail' }, verdict.detail),
          ),
        );
  const existing = listElement.querySelector(`[data-section="${verdict.section}"]`);
  if (existing) existing.replaceWith(item);
  else listElement.append(item);
}

/** Draws a part's answer into every section it feeds. */
function drawPart(part: string, data: Data): void {
  for (const section of sectionElements(part)) {
    const body = section.querySelector('.body');
    if (!body) continue;
    const id = section.id;
    const check = REPORT_SECTIONS.find((s) => s.id === id)?.check;
    if (part === 'website' && id === 'tls') {
      fill(
        body,
        renderTls(
          websitePart(data, 'tls-rating', 'tlsRating'),
          list(data.checks).find((c) => c.id === 'tls-rating') ?? null,
        ),
      );
    } else if (part === 'website' && id === 'observatory') {
      fill(
        body,
        renderObservatory(
          websitePart(data, 'http-rating', 'httpRating'),
          list(data.checks).find((c) => c.id === 'http-rating') ?? null,
        ),
      );
    } else if (part === 'website' && check) {
      fill(body, checkSection(data, check), rawAnswer(check, list(data.checks).find((c) => c.id === check) ?? null));
    } else if (part === 'website') {
      fill(body, compositeSummary(data), checksTable('Website checks', data), rawAnswer('website-health-check', data));
    } else if (part === 'dnssec') {
      fill(body, renderDnssec(data));
    } else if (part === 'mail') {
      fill(body, renderMail(data));
    } else if (part === 'registration') {
      fill(body, renderRegistration(data));
    }
  }
  for (const verdict of verdictsOf(part, data)) showVerdict(verdict);
}

function describeErrors(errors: readonly GraphQLError[] | undefined): string {
  const first = errors?.[0];
  if (!first) return 'no answer';
  return `${text(first.message)}${first.extensions?.code ? ` (${first.extensions.code})` : ''}`;
}

function drawFailure(part: string, errors: readonly GraphQLError[] | undefined, seconds: string): void {
  const message = describeErrors(errors);
  for (const section of sectionElements(part)) {
    const body = section.querySelector('.body');
    if (body)
      fill(body, h('p', { class: 'failed' }, badge('error', 'warning'), ' This check could not run: ', message));
    setState(section, 'failed', `Failed after ${seconds} s.`);
  }
  for (const section of sectionElements(part)) {
    const title = REPORT_SECTIONS.find((s) => s.id === section.id)?.title ?? section.id;
    showVerdict({ section: section.id, title, value: '–', detail: message, severity: 'warning' });
  }
}

/**
 * A frame later, once what was just drawn is on screen: the time, from the page's navigation, the benchmark
 * (bench/report.ts) reads as "on screen".
 */
function whenPainted(then: (ms: number) => void): void {
  requestAnimationFrame(() => setTimeout(() => then(Math.round(performance.now())), 0));
}

/** The operation's request, sent as soon as the script runs (the body may still be being parsed). */
function request(setup: Setup, key: string): Promise<Response> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'multipart/mixed, application/graphql-response+json;q=0.9, application/json;q=0.8',
  };
  if (key) headers['x-api-key'] = key;
  return fetch(setup.endpoint, {
    method: 'POST',
    headers,
    body: JSON.stringify({ query: setup.operation, variables: { domain: setup.domain } }),
    credentials: 'omit',
  });
}

async function run(setup: Setup, answer: Promise<Response>, started: number): Promise<void> {
  // for the benchmark: when the request left, from the page's navigation
  document.body.dataset.requestMs = String(Math.round(started));
  const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
  const pending = new Set(sectionElements().map((s) => s.dataset.part ?? ''));
  for (const section of sectionElements()) {
    setState(section, 'running', 'Running…');
    const title = REPORT_SECTIONS.find((s) => s.id === section.id)?.title ?? section.id;
    showVerdict({ section: section.id, title, pending: 'running' });
  }
  say(`Running ${pending.size} checks of ${setup.domain}…`);
  const ticker = setInterval(() => {
    for (const section of sectionElements())
      if (section.dataset.state === 'running')
        setState(section, 'running', `Running… ${Math.round((performance.now() - started) / 1000)} s`);
  }, 1000);

  // for the benchmark: when the part being drawn was read from the answer, from the request's start
  let readAt = 0;
  const arrived = (part: string, value: unknown, errors: readonly GraphQLError[] | undefined) => {
    if (!pending.delete(part)) return;
    if (isObject(value)) {
      drawPart(part, value);
      for (const section of sectionElements(part)) {
        section.dataset.readMs = String(Math.round(readAt - started));
        section.dataset.arrivedMs = String(Math.round(performance.now() - started));
        setState(section, 'done', `Done in ${seconds()} s.`);
      }
    } else {
      drawFailure(part, errors, seconds());
    }
    for (const section of sectionElements(part)) {
      whenPainted((ms) => {
        section.dataset.shownMs = String(ms);
      });
    }
    say(pending.size > 0 ? `${pending.size} of the checks still running…` : `Report done in ${seconds()} s.`);
  };

  const read = (payload: Payload) => {
    // fields answered whole (an answer not in parts) and the deferred parts as they come
    for (const [field, value] of Object.entries(payload.data ?? {})) {
      const part = REPORT_PARTS.find((p) => fieldOf(p.tool) === field)?.id ?? field;
      arrived(
        part,
        value,
        payload.errors?.filter((e) => e.path?.[0] === field),
      );
    }
    for (const item of payload.incremental ?? []) {
      const [field, value] = Object.entries(item.data ?? {})[0] ?? [];
      const part = item.label ?? field ?? '';
      arrived(part, value, item.errors?.filter((e) => !field || e.path?.[0] === field) ?? payload.errors);
    }
  };

  try {
    const response = await answer;
    const parts = await meros<Payload>(response);
    if (parts instanceof Response) {
      const payload = (await parts.json().catch(() => ({}))) as Payload;
      readAt = performance.now();
      if (!payload.data) {
        const refusal = payload.errors?.[0];
        const needsKey = refusal?.extensions?.code === 'UNAUTHENTICATED';
        const message = needsKey
          ? 'This report needs an API key: enter one above and run it again (the developer page gives one).'
          : `The report could not run: ${describeErrors(payload.errors)}`;
        for (const section of sectionElements())
          setState(section, 'refused', needsKey ? 'Needs an API key.' : 'Not run.');
        pending.clear();
        say(message);
        document.body.dataset.report = needsKey ? 'needs-key' : 'refused';
        return;
      }
      read(payload);
    } else {
      for await (const part of parts) {
        readAt = performance.now();
        if (part.json) read(part.body);
      }
    }
    for (const part of pending) drawFailure(part, undefined, seconds());
    // for the benchmark (bench/report.ts) and tests: when the last part was drawn, from the request's start
    document.body.dataset.doneMs = String(Math.round(performance.now() - started));
    document.body.dataset.report = 'done';
    whenPainted((ms) => {
      document.body.dataset.shownMs = String(ms);
    });
  } catch (error) {
    for (const part of pending)
      drawFailure(part, [{ message: `the service could not be reached (${(error as Error).message})` }], seconds());
    say('The report stopped: the service could not be reached.');
    document.body.dataset.report = 'failed';
  } finally {
    clearInterval(ticker);
  }
}

function readSetup(): Setup | null {
  const element = document.getElementById('report-setup');
  return element ? (JSON.parse(element.textContent ?? '{}') as Setup) : null;
}

/** After the body is parsed: the form's wiring, and the report drawn as its operation answers. */
function whenParsed(then: () => void): void {
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', then, { once: true });
  else then();
}

/**
 * The script is `async` and its setup sits in the head (./../page.ts): the operation is sent at once, before
 * the body is parsed, and the sections are drawn once it is (docs/report.md "Performance").
 */
function start(): void {
  const setup = readSetup();
  if (!setup) return;
  const key = storedKey().trim();
  const runs = setup.domain !== '' && (key !== '' || setup.publicReports);
  const started = performance.now();
  const answer = runs ? request(setup, key) : null;
  // a refused or failed request is read by run(); until then it must not count as unhandled
  answer?.catch(() => undefined);
  whenParsed(() => {
    const keyInput = document.getElementById('api-key') as HTMLInputElement | null;
    if (!keyInput) return;
    keyInput.value = key;
    keyInput.addEventListener('input', () => storeKey(keyInput.value.trim()));
    keyInput.form?.addEventListener('submit', () => storeKey(keyInput.value.trim()));
    const actions = document.querySelector('.ask');
    actions?.append(h('button', { type: 'button', class: 'secondary', id: 'print' }, 'Print or save as PDF'));
    document.getElementById('print')?.addEventListener('click', () => window.print());
    if (!setup.domain) return;
    if (!answer) {
      for (const section of sectionElements()) setState(section, 'refused', 'Needs an API key.');
      say('This report needs an API key: enter one above and run it again (the developer page gives one).');
      document.body.dataset.report = 'needs-key';
      return;
    }
    void run(setup, answer, started);
  });
}

start();
