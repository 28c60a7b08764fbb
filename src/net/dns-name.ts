/**
 * The one spelling of a DNS name this service compares and keys by: lower case (names compare
 * case-insensitively, RFC 4343 §3) and without the root's trailing dot ("example.com." and
 * "example.com" name the same node, RFC 1034 §3.1).
 */
export function canonicalName(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}
