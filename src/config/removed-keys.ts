/**
 * Keys earlier versions read that this one no longer has (CHANGELOG "Removed"): a file written for an
 * earlier version still starts, with a warning naming each key and where its setting went, instead of being
 * refused as an unknown key.
 */
export const REMOVED_KEYS: Readonly<Record<string, string>> = {
  'server.heapGrowthPercent': 'pass --heap-growing-percent=N on the node command line (npm start passes 30)',
  'server.singleThreadedGc': 'pass --single-threaded-gc on the node command line',
  'outbound.dns': "the per-family caps are the service's own (size admission.* instead)",
  'outbound.tcp': "the per-family caps are the service's own (size admission.* instead)",
  'outbound.tls': "the per-family caps are the service's own (size admission.* instead)",
  'outbound.http': "the per-family caps are the service's own (size admission.* instead)",
  'outbound.ping': "the per-family caps are the service's own (size admission.* instead)",
  'outbound.whois': "the per-family caps are the service's own (size admission.* instead)",
  'outbound.rdap': "the per-family caps are the service's own (size admission.* instead)",
  'outbound.smtp': "the per-family caps are the service's own (size admission.* instead)",
  'smtp.connectTimeoutMs': 'the SMTP connect is bounded by tcp.connectTimeoutMs',
  'graphql.maxDirectives': 'fixed at 10 (@skip and @include are the only directives)',
  'admission.retryAfterSeconds': 'a shed request is told to retry in 2 s',
  'admission.maxQueueWaitMs':
    'a request is shed when the wait it would have passes 2 s, measured from the rate slots free up (docs/operations.md "Shedding")',
  'admission.maxEventLoopDelayMs':
    'the event loop\'s delay counts in the wait a request would have, shed past 2 s (docs/operations.md "Shedding")',
};

/** Removes the keys of REMOVED_KEYS from `raw` (and a section left empty), and says which it removed. */
export function withoutRemovedKeys(raw: Record<string, any>, source: string): string[] {
  const warnings: string[] = [];
  for (const [path, instead] of Object.entries(REMOVED_KEYS)) {
    const [section, key] = path.split('.') as [string, string];
    const holder = raw[section];
    if (holder === null || typeof holder !== 'object' || !(key in holder)) continue;
    delete holder[key];
    if (Object.keys(holder).length === 0) delete raw[section];
    warnings.push(`${source}: "${path}" is no longer a setting and is ignored: ${instead}`);
  }
  return warnings;
}
