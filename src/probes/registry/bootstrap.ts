/**
 * The IANA RDAP bootstrap registry for DNS (RFC 9224): which RDAP base URL serves
 * which TLD. The service bundles a copy (data/rdap-dns.json); an operator may
 * point `rdap.bootstrapFile` at a fresher one. Parsed once at start-up.
 */
import { readFileSync } from 'node:fs';
import { projectFile } from '../../project-files.js';
import { ConfigError } from '../../config.js';
import { canonicalName } from '../../net/dns-name.js';

export interface Bootstrap {
  /** the file's "publication" timestamp, when present */
  readonly publication: string | null;
  /** lower-case label set ("com", "co.uk") → its preferred base URL */
  readonly bases: ReadonlyMap<string, string>;
  /** the largest number of labels in any entry, to bound the suffix search */
  readonly maxLabels: number;
}

/** Path of the copy bundled with the service (repository root / data). */
export function bundledBootstrapPath(): string {
  return projectFile('data/rdap-dns.json');
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

/**
 * RFC 9224 §3: "services" is an array of [entries, urls]. When an entry lists
 * several URLs, clients should prefer https; among equals the first one listed.
 */
function preferredUrl(urls: readonly string[]): string | null {
  const usable = urls.filter((u) => {
    const parsed = URL.parse(u);
    return parsed !== null && (parsed.protocol === 'https:' || parsed.protocol === 'http:');
  });
  return usable.find((u) => u.startsWith('https:')) ?? usable[0] ?? null;
}

/** Validates and indexes a bootstrap document. Throws ConfigError naming what is wrong. */
export function loadBootstrap(json: unknown, source = 'RDAP bootstrap'): Bootstrap {
  if (!isObject(json) || !Array.isArray(json.services)) {
    throw new ConfigError(`${source}: expected an object with a "services" array (RFC 9224 §3)`);
  }
  const bases = new Map<string, string>();
  let maxLabels = 1;
  json.services.forEach((service: unknown, i: number) => {
    if (!Array.isArray(service) || service.length < 2 || !isStringArray(service[0]) || !isStringArray(service[1])) {
      throw new ConfigError(`${source}: services[${i}] is not a pair of string arrays`);
    }
    const url = preferredUrl(service[1]);
    if (url === null) throw new ConfigError(`${source}: services[${i}] has no http(s) URL`);
    for (const entry of service[0]) {
      const key = canonicalName(entry);
      if (key === '') continue;
      // The same label set in two entries is a broken file; keep the first.
      if (!bases.has(key)) bases.set(key, url);
      maxLabels = Math.max(maxLabels, key.split('.').length);
    }
  });
  const publication = typeof json.publication === 'string' ? json.publication : null;
  return { publication, bases, maxLabels };
}

/** Reads and validates a bootstrap file (the bundled one by default). */
export function loadBootstrapFile(path: string = bundledBootstrapPath()): Bootstrap {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ConfigError(`${path}: cannot read the RDAP bootstrap file (${(e as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`${path}: not valid JSON (${(e as Error).message})`);
  }
  return loadBootstrap(json, path);
}

/**
 * The RDAP base URL for `domain`: the entry whose label set is the longest
 * suffix of the domain (RFC 9224 §4, "the longest match"); null when none.
 */
export function rdapBaseFor(bootstrap: Bootstrap, domain: string): string | null {
  const labels = canonicalName(domain).split('.');
  for (let n = Math.min(bootstrap.maxLabels, labels.length); n >= 1; n--) {
    const base = bootstrap.bases.get(labels.slice(-n).join('.'));
    if (base !== undefined) return base;
  }
  return null;
}
