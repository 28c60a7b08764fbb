/**
 * Response header fields as the API reports them: lower-case names (field names are
 * case-insensitive, RFC 9110 §5.1), one string per name.
 *
 * Repeated field lines are combined with ", " as RFC 9110 §5.3 allows for list-based
 * fields. Set-Cookie is the exception the same section names: its values may contain
 * commas (Expires=Wed, 21 Oct …) and must not be comma-joined (RFC 6265 §3), so its
 * lines are joined with "\n", a character no field value can contain (RFC 9110 §5.5).
 */
export type HeaderMap = Record<string, string>;

const SET_COOKIE = 'set-cookie';
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const latin1 = new TextDecoder('latin1');

/** Combines field lines, in order, into a name → value map. */
export function normaliseHeaderFields(fields: Iterable<readonly [name: string, value: string]>): HeaderMap {
  const combined = new Map<string, string>();
  for (const [rawName, value] of fields) {
    const name = rawName.toLowerCase();
    const earlier = combined.get(name);
    if (earlier === undefined) combined.set(name, value);
    else combined.set(name, `${earlier}${name === SET_COOKIE ? '\n' : ', '}${value}`);
  }
  // Object.fromEntries defines own properties, so a field named "__proto__" stays data.
  return Object.fromEntries(combined);
}

/**
 * Decodes a field value's bytes. Field values are octets (RFC 9110 §5.5); most servers
 * that send non-ASCII send UTF-8, older ones ISO-8859-1, so valid UTF-8 is read as such
 * and anything else byte-for-byte as Latin-1 (which never fails).
 */
export function decodeFieldBytes(bytes: Uint8Array): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return latin1.decode(bytes);
  }
}

/**
 * Pairs a flat raw header list ([name, value, name, value, …] as undici and node:http
 * deliver it) into field lines. A trailing unpaired name is dropped.
 */
export function pairRawHeaders(raw: readonly (Uint8Array | string)[]): [string, string][] {
  const lines: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    const value = raw[i + 1]!;
    lines.push([
      typeof name === 'string' ? name : latin1.decode(name),
      typeof value === 'string' ? value : decodeFieldBytes(value),
    ]);
  }
  return lines;
}
