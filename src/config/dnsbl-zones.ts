/**
 * The DNS block lists dns-blacklist-checker and mailhealth-check ask by default (`dnsbl.zones`): six lists
 * alive in 2026 (SORBS closed in 2024 and is not shipped).
 */
export const DEFAULT_DNSBL_ZONES = [
  { zone: 'zen.spamhaus.org', name: 'Spamhaus ZEN' },
  { zone: 'bl.spamcop.net', name: 'SpamCop' },
  { zone: 'b.barracudacentral.org', name: 'Barracuda' },
  { zone: 'dnsbl-1.uceprotect.net', name: 'UCEPROTECT Level 1' },
  { zone: 'psbl.surriel.com', name: 'PSBL' },
  { zone: 'bl.mailspike.net', name: 'Mailspike' },
] as const;
