/**
 * caa: the awaiting part. RFC 8659 §3: the relevant CAA record set of a name is the first one found
 * climbing from it towards the root, the root excluded; the resolver follows CNAMEs as for any question.
 * The name and each parent are asked at once through the check context (the system resolver, once per
 * request, from the TTL cache when fresh): the nearest set wins. A question that fails below the set found
 * fails the check (a 502/504 naming the resolver): without it the relevant set is unknown; one that fails
 * above it is not needed. What the set means is ./rules.ts's.
 */
import type { CheckContext } from '../../../loaders/context.js';
import { recordsOfType, type DnsResponse } from '../../../probes/dns/client.js';
import type { CaaData } from '../../../probes/dns/types.js';
import { canonicalName } from '../../../net/dns-name.js';
import { evaluateCaa, type CaaResult } from './rules.js';

/** `www.example.com` → `www.example.com`, `example.com`, `com` */
export function namesUpToTheRoot(domain: string): string[] {
  const labels = canonicalName(domain).split('.');
  return labels.map((_, i) => labels.slice(i).join('.')).filter((name) => name !== '');
}

/** The targets of the CNAME chain that starts at `name` in the answer. */
function aliasesOf(response: DnsResponse, name: string): string[] {
  const chain: string[] = [];
  let owner = canonicalName(name);
  for (;;) {
    const alias = recordsOfType(response, owner, 'CNAME')[0];
    const target = alias === undefined ? null : canonicalName(alias.data as string);
    if (target === null || chain.includes(target)) return chain;
    chain.push(target);
    owner = target;
  }
}

export async function runCaa(ctx: CheckContext, domain: string): Promise<CaaResult> {
  const names = namesUpToTheRoot(domain);
  const answers = await Promise.allSettled(names.map((name) => ctx.resolve(name, 'CAA')));
  for (const [i, answer] of answers.entries()) {
    const name = names[i]!;
    if (answer.status === 'rejected') throw answer.reason;
    const records = recordsOfType(answer.value, name, 'CAA');
    if (records.length > 0)
      return evaluateCaa({
        domain,
        foundAt: name,
        aliases: aliasesOf(answer.value, name),
        checkedNames: names.slice(0, i + 1),
        records: records.map((r) => r.data as CaaData),
      });
  }
  return evaluateCaa({ domain, foundAt: null, aliases: [], checkedNames: names, records: [] });
}
