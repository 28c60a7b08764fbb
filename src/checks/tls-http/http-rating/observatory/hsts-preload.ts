/**
 * The HSTS preload list http-rating consults (docs/contract/grades.md: "preloaded" means listed in the file
 * `http.hstsPreloadList` names; with none configured no host counts as preloaded). The file is Chromium's
 * net/http/transport_security_state_static.json: JSON with whole-line `//` comments, whose `entries` are
 * `{ name, mode, include_subdomains, … }`. It is read once per path, on first use.
 *
 * A host is preloaded as the Observatory decides it (src/analyzer/hsts.js): an entry for the name itself in
 * mode "force-https", or one for a parent domain in that mode with include_subdomains.
 */
import { readFileSync } from 'node:fs';

export interface PreloadEntry {
  includeSubDomains: boolean;
  mode: string;
}

export interface ChromiumPreloadFile {
  entries: { name: string; mode?: string; include_subdomains?: boolean }[];
}

export type PreloadLookup = (hostname: string) => PreloadEntry | null;

/** No host preloaded: the default, without http.hstsPreloadList. */
export const NOTHING_PRELOADED: PreloadLookup = () => null;

/** A lookup over a parsed preload file. */
export function preloadLookup(file: ChromiumPreloadFile): PreloadLookup {
  const entries = new Map<string, PreloadEntry>();
  for (const entry of file.entries) {
    entries.set(entry.name.trim().toLowerCase(), {
      includeSubDomains: entry.include_subdomains === true,
      mode: entry.mode ?? '',
    });
  }
  return (hostname) => {
    const own = entries.get(hostname);
    if (own?.mode === 'force-https') return own;
    const labels = hostname.split('.');
    for (labels.shift(); labels.length > 0; labels.shift()) {
      const parent = entries.get(labels.join('.'));
      if (parent?.mode === 'force-https' && parent.includeSubDomains) return parent;
    }
    return null;
  };
}

/** Chromium's file with its comment lines removed (only whole-line comments: "//" also occurs in URLs). */
export function parseChromiumPreloadList(text: string): ChromiumPreloadFile {
  const parsed = JSON.parse(text.replace(/^\s*\/\/.*$/gm, '')) as Partial<ChromiumPreloadFile>;
  if (!Array.isArray(parsed.entries)) throw new TypeError('an HSTS preload list has an "entries" array');
  return { entries: parsed.entries };
}

const loaded = new Map<string, PreloadLookup>();

/** The lookup for config http.hstsPreloadList: read and parsed once per path. */
export function hstsPreloadList(path: string | null): PreloadLookup {
  if (path === null) return NOTHING_PRELOADED;
  let lookup = loaded.get(path);
  if (lookup === undefined) {
    lookup = preloadLookup(parseChromiumPreloadList(readFileSync(path, 'utf8')));
    loaded.set(path, lookup);
  }
  return lookup;
}
