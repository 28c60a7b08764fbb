import type { HeaderMap } from '../../../probes/http/header-fields.js';

/** The five headers of http-headers' `security` block, in api-v1.md's order. */
export const SECURITY_HEADERS = [
  'strict-transport-security',
  'x-frame-options',
  'x-content-type-options',
  'referrer-policy',
  'content-security-policy',
] as const;

export type SecurityHeaderName = (typeof SECURITY_HEADERS)[number];

export interface SecurityHeaderScore {
  score: number;
  total: number;
  present: SecurityHeaderName[];
  missing: SecurityHeaderName[];
}

/**
 * A header counts as present when the final response carries it with a non-empty
 * value. Strict-Transport-Security counts only when the final URL is https: a user
 * agent ignores it over plain HTTP (RFC 6797 §8.1), so there it protects nothing.
 */
export function scoreSecurityHeaders(headers: HeaderMap, finalUrl: string): SecurityHeaderScore {
  const overHttps = finalUrl.toLowerCase().startsWith('https:');
  const present: SecurityHeaderName[] = [];
  const missing: SecurityHeaderName[] = [];
  for (const name of SECURITY_HEADERS) {
    const value = headers[name];
    const effective = value !== undefined && value.trim() !== '' && (name !== 'strict-transport-security' || overHttps);
    (effective ? present : missing).push(name);
  }
  return { score: present.length, total: SECURITY_HEADERS.length, present, missing };
}
