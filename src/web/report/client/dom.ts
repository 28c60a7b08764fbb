/**
 * The only way the report's script makes markup: elements made by name, attributes from a short list,
 * and every value as a text node. There is no path from a string to markup here (no innerHTML, no
 * insertAdjacentHTML, no event-handler attributes), so what the checks answer — TXT records, headers,
 * page titles, WHOIS text, certificate names — shows as the characters it is (docs/report.md "Hostile data").
 */

export type Child = Node | string | number | null | undefined | false | readonly Child[];

/** Attributes an element may be given; anything else (on…, style, srcdoc…) is refused. */
const ALLOWED = new Set([
  'class',
  'id',
  'href',
  'title',
  'role',
  'colspan',
  'rowspan',
  'scope',
  'open',
  'hidden',
  'tabindex',
  'lang',
  'datetime',
  'for',
  'rel',
  'target',
  'type',
  'width',
  'height',
  'viewBox',
  'x',
  'y',
  'x1',
  'y1',
  'x2',
  'y2',
  'rx',
  'd',
  'points',
  'text-anchor',
  'dominant-baseline',
  'marker-end',
  'markerWidth',
  'markerHeight',
  'refX',
  'refY',
  'orient',
  'focusable',
  'preserveAspectRatio',
]);

type Attributes = Readonly<Record<string, string | number | boolean | null | undefined>>;

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Links go to the web (https), or stay on this page (#) or this service (/). */
export function safeHref(href: string): string | null {
  return /^(https:\/\/|#|\/(?!\/))/.test(href) ? href : null;
}

function setAttributes(element: Element, attributes: Attributes): void {
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (!ALLOWED.has(name) && !name.startsWith('aria-') && !name.startsWith('data-')) {
      throw new Error(`the report's DOM helper sets no "${name}" attribute`);
    }
    let text = value === true ? '' : String(value);
    if (name === 'href') {
      const checked = safeHref(text);
      if (checked === null) continue;
      text = checked;
    }
    element.setAttribute(name, text);
  }
}

function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else if (child instanceof Node) parent.appendChild(child);
    else parent.appendChild(document.createTextNode(String(child)));
  }
}

/** An HTML element: `h('td', { class: 'bad' }, text)`. Strings and numbers become text nodes. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  setAttributes(element, attributes);
  append(element, children);
  return element;
}

/** An SVG element, drawn with DOM calls: `<text>` gets its words as text nodes like any other. */
export function s<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG_NS, tag) as SVGElementTagNameMap[K];
  setAttributes(element, attributes);
  append(element, children);
  return element;
}

/** Replaces an element's children. */
export function fill(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

/** A value for a table cell: "–" for nothing, "yes"/"no" for booleans, lists joined. */
export function show(value: unknown): string {
  if (value === null || value === undefined || value === '') return '–';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) return value.length === 0 ? '–' : value.map(show).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export type Data = Record<string, unknown>;
export const isObject = (v: unknown): v is Data => typeof v === 'object' && v !== null && !Array.isArray(v);
export const list = (v: unknown): Data[] => (Array.isArray(v) ? v.filter(isObject) : []);
export const text = (v: unknown): string =>
  typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v);
