/**
 * The DNS root as dnssec-chain starts from it (docs/contract/dnssec-chain.md): the trust anchors it validates
 * from (`dnssec.trustAnchors`) and the servers its authoritative walk asks first (`dnssec.rootServers`).
 */

/** The IANA root zone KSKs (KSK-2017 and KSK-2024) as DS records. */
export const DEFAULT_DNSSEC_TRUST_ANCHORS = [
  '. IN DS 20326 8 2 E06D44B80B8F1D39A95C0B0D7C65D08458E880409BBC683457104237C7F8EC8D',
  '. IN DS 38696 8 2 683D2D0ACB8C9B712A1948B27F741219298D0A450D612C483AF444A4C0FB2B16',
] as const;

/** The root servers' IPv4 addresses (a to m), from the IANA root hints (named.root). */
export const DEFAULT_ROOT_SERVERS = [
  '198.41.0.4',
  '170.247.170.2',
  '192.33.4.12',
  '199.7.91.13',
  '192.203.230.10',
  '192.5.5.241',
  '192.112.36.4',
  '198.97.190.53',
  '192.36.148.17',
  '192.58.128.30',
  '193.0.14.129',
  '199.7.83.42',
  '202.12.27.33',
] as const;
