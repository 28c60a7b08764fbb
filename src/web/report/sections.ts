/**
 * What a report is made of, shared by the server (the page's markup, the composed operation), the page's
 * client code and the `netdiag report` command: the checks it runs (parts: one deferred fragment each, so
 * that each arrives when it is done) and the sections a person reads (a part can feed several: the
 * website health check carries the TLS rating and the HTTP Observatory's). Pure data: this module is
 * bundled into the browser's script too.
 *
 * A new check in the report is a part here (its REST tool; the operation takes the tool's REST selection,
 * src/web/report/operation.ts), a section, and its drawing in src/web/report/client/render/.
 */

/** Which report: a site's, a mail domain's, or both (the default). */
export type ReportView = 'web' | 'mail' | 'all';

export const REPORT_VIEWS: readonly ReportView[] = ['all', 'web', 'mail'];

/** One check the report's operation runs, under `@defer(label: id)`. */
export interface ReportPart {
  /** the fragment's label, and the key of the part's answer */
  readonly id: string;
  /** the v1 REST tool whose document's selection the operation takes (its price is the tool's) */
  readonly tool: string;
  readonly views: readonly ReportView[];
}

/** One section of the page, drawn from one part's answer. */
export interface ReportSection {
  readonly id: string;
  readonly title: string;
  /** the part whose answer it draws */
  readonly part: string;
  /** one line under the title: what the section shows */
  readonly about: string;
  /**
   * a check of the website health check that the section shows alone (its id in the answer's `checks`): its
   * status, its summary and its own findings; the Website section lists it among the others too
   */
  readonly check?: string;
}

export const REPORT_PARTS: readonly ReportPart[] = [
  { id: 'registration', tool: 'whois', views: ['all', 'web', 'mail'] },
  { id: 'dnssec', tool: 'dnssec-chain', views: ['all', 'web', 'mail'] },
  { id: 'mail', tool: 'mailhealth-check', views: ['all', 'mail'] },
  { id: 'website', tool: 'website-health-check', views: ['all', 'web'] },
];

export const REPORT_SECTIONS: readonly ReportSection[] = [
  {
    id: 'tls',
    title: 'TLS',
    part: 'website',
    about: 'The grade of the HTTPS server as SSL Labs rates it, and what it accepts.',
  },
  {
    id: 'observatory',
    title: 'HTTP security',
    part: 'website',
    about: "The MDN HTTP Observatory's grade and its ten tests.",
  },
  {
    id: 'caa',
    title: 'CAA',
    part: 'website',
    check: 'caa',
    about: 'Which certificate authorities may issue certificates for the name (RFC 8659).',
  },
  {
    id: 'security-txt',
    title: 'security.txt',
    part: 'website',
    check: 'security-txt',
    about: 'How to report a vulnerability in the site, as its security.txt says (RFC 9116).',
  },
  {
    id: 'website',
    title: 'Website health',
    part: 'website',
    about: 'DNS, reachability, HTTP, certificate, headers and ports of the site.',
  },
  {
    id: 'dnssec',
    title: 'DNSSEC chain of trust',
    part: 'dnssec',
    about: 'Each zone from the root down, and the link that breaks, if one does.',
  },
  {
    id: 'mail',
    title: 'Mail',
    part: 'mail',
    about: 'Where mail to the domain goes, and whether it travels encrypted and authenticated.',
  },
  {
    id: 'registration',
    title: 'Registration',
    part: 'registration',
    about: 'Who registered the domain, and when the registration ends.',
  },
];

/** A tool's GraphQL field: its name in camelCase (`dnssec-chain` → `dnssecChain`, as the README's table says). */
export function fieldOf(tool: string): string {
  return tool.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
}

export function isReportView(value: string | null | undefined): value is ReportView {
  return value === 'web' || value === 'mail' || value === 'all';
}

export function partsOf(view: ReportView): ReportPart[] {
  return REPORT_PARTS.filter((p) => p.views.includes(view));
}

export function sectionsOf(view: ReportView): ReportSection[] {
  const parts = new Set(partsOf(view).map((p) => p.id));
  return REPORT_SECTIONS.filter((s) => parts.has(s.part));
}
