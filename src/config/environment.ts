/**
 * The environment variables that set configuration keys (docs/configuration.md names each beside its key),
 * laid over the file's object before it is validated. Each value set is remembered with the variable that
 * set it, so that a refusal names the variable (`environment: NETDIAG_API_KEYS …`), not a key of a file
 * the operator never wrote.
 */
import { ConfigError } from './config-error.js';

/** A number in 0–65535, as PORT and METRICS_PORT take it. */
function portNumber(variable: string, text: string): number {
  if (!/^\d{1,5}$/.test(text)) throw new ConfigError(`environment: ${variable}: expected a port number, got "${text}"`);
  return Number(text);
}

interface Variable {
  readonly name: string;
  /** section and key it sets */
  readonly key: readonly [section: string, key: string];
  /** the key's value from the variable's text; `existing` is the file's value, which a list adds to */
  readonly value: (text: string, existing: unknown) => unknown;
}

/** Every variable, with the key it sets; `configSchema`'s `env` metadata names the same ones (test/unit/config.test.ts). */
export const ENVIRONMENT_VARIABLES: readonly Variable[] = [
  { name: 'HOST', key: ['server', 'host'], value: (text) => text },
  { name: 'PORT', key: ['server', 'port'], value: (text) => portNumber('PORT', text) },
  { name: 'NETDIAG_DATA_DIR', key: ['server', 'dataDir'], value: (text) => text },
  {
    name: 'NETDIAG_API_KEYS',
    key: ['auth', 'keys'],
    // comma-separated, added to the file's keys
    value: (text, existing) => [
      ...(Array.isArray(existing) ? existing : []),
      ...text
        .split(',')
        .map((k) => k.trim())
        .filter(Boolean),
    ],
  },
  { name: 'NETDIAG_SECRET', key: ['auth', 'secret'], value: (text) => text },
  { name: 'REDIS_URL', key: ['store', 'redisUrl'], value: (text) => text },
  { name: 'IPINFO_TOKEN', key: ['ipInfo', 'token'], value: (text) => text },
  { name: 'METRICS_PORT', key: ['metrics', 'port'], value: (text) => portNumber('METRICS_PORT', text) },
];

/** Where a value came from: the variable that set the key, and for a list the first item it added. */
export interface EnvironmentSource {
  readonly variable: string;
  /** for a list a variable adds to: the index of its first item */
  readonly firstItem?: number;
}

/**
 * Lays the set variables over `raw` (the file's object, changed in place); returns the key paths they set
 * (`server.port`, `auth.keys`) with the variable that set each.
 */
export function applyEnvironment(raw: Record<string, any>, env: NodeJS.ProcessEnv): Map<string, EnvironmentSource> {
  const sources = new Map<string, EnvironmentSource>();
  for (const variable of ENVIRONMENT_VARIABLES) {
    const text = env[variable.name];
    if (!text) continue;
    const [sectionName, key] = variable.key;
    const section = sectionOf(raw, sectionName);
    const existing = section[key];
    section[key] = variable.value(text, existing);
    sources.set(`${sectionName}.${key}`, {
      variable: variable.name,
      ...(Array.isArray(section[key]) ? { firstItem: Array.isArray(existing) ? existing.length : 0 } : {}),
    });
  }
  return sources;
}

function sectionOf(raw: Record<string, any>, name: string): Record<string, unknown> {
  const s = raw[name];
  if (s === undefined) return (raw[name] = {});
  if (s === null || typeof s !== 'object' || Array.isArray(s))
    throw new ConfigError(`config: "${name}": expected an object`);
  return s as Record<string, unknown>;
}

/**
 * The variable a refused key path (`auth.keys.1`) came from, said as an operator reads it
 * ("NETDIAG_API_KEYS, its 2nd item"), or null when the file set it. The value is never repeated: it may be a secret.
 */
export function variableOf(
  path: readonly PropertyKey[],
  sources: ReadonlyMap<string, EnvironmentSource>,
): string | null {
  const source = sources.get(path.slice(0, 2).join('.'));
  if (!source) return null;
  if (source.firstItem === undefined) return source.variable;
  const item = Number(path[2]);
  if (!Number.isInteger(item) || item < source.firstItem) return null;
  return `${source.variable}, its ${ordinal(item - source.firstItem + 1)} item`;
}

function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}
