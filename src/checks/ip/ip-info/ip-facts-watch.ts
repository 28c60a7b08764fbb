/**
 * ip-info and asn-lookup (docs/contract/api-v1.md): the address, its AS and country. The AS name and
 * domain are left out: the live source and the bundled data spell them differently, and a live look-up
 * that fails falls back to the bundled data on that run (`source`, `liveError`); the AS number says the same.
 */
import { type JsonObject, str } from '../../../watch/projection.js';
import type { WatchSpec } from '../../../watch/watch-spec.js';

/** The spec of a check answering with IP facts (ip-info, asn-lookup). */
export function ipFactsWatch(tool: string): WatchSpec {
  return {
    tool,
    project(data: JsonObject) {
      return { ip: str(data.ip), asn: str(data.asn), countryCode: str(data.countryCode) };
    },
    ranked: [],
    assess(data: JsonObject) {
      const asName = str(data.asName);
      return {
        status: 'ok',
        grade: null,
        summary: `${str(data.ip) ?? '?'} is announced by ${str(data.asn) || 'no known AS'}${asName ? ` (${asName})` : ''}${str(data.country) ? ` in ${str(data.country)}` : ''}.`,
      };
    },
  };
}
