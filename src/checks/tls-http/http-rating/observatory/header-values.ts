/**
 * A response header's values as the Observatory's `getHttpHeaders` gives them: one value per field name
 * (repeated fields arrive joined with ", ", as Node's parser joins them, RFC 9110 §5.3), except Set-Cookie,
 * one value per line (header-fields.ts joins those with "\n").
 */
import type { HeaderMap } from '../../../../probes/http/header-fields.js';

export function headerValues(headers: HeaderMap, name: string): string[] {
  const value = headers[name];
  if (value === undefined) return [];
  return name === 'set-cookie' ? value.split('\n') : [value];
}

/** The first value, or null (the package's `getFirstHttpHeader`). */
export function firstHeaderValue(headers: HeaderMap, name: string): string | null {
  return headerValues(headers, name)[0] ?? null;
}
