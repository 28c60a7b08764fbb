/** What collection hands to evaluation: every answer the chain needs, or why it could not be had. */
import type { DnsResponse, DsData, RecordType } from '../../../probes/dns/client.js';

export type Asked =
  | { readonly response: DnsResponse; readonly failure?: undefined }
  | { readonly response?: undefined; readonly failure: string };

export interface TrustAnchor {
  /** the zone the anchor is for, e.g. "." */
  readonly owner: string;
  readonly ds: DsData;
}

export interface NameObservations {
  /** the anchor zone first, then each name below it down to the question's name */
  readonly name: string;
  /** DS with DO+CD; null for the anchor zone (its anchors stand in) */
  readonly ds: Asked | null;
  /** DNSKEY with DO+CD */
  readonly dnskey: Asked;
}

export interface ChainObservations {
  readonly qname: string;
  readonly qtype: RecordType;
  readonly anchors: readonly TrustAnchor[];
  readonly names: readonly NameObservations[];
  readonly answer: Asked;
  readonly nowSeconds: number;
}
