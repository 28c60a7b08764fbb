/**
 * Asks, in parallel, the questions that spf.ts's walk of an SPF include tree asks one after the
 * other, so that the walk (run beside it on the same per-request loaders) finds each answer already
 * on its way. The walk evaluates terms in record order and awaits each include's whole subtree
 * before the next term; its wall time is then the SUM of its subtrees, where the questions only
 * depend on each other along one include chain. With the prefetch, the SPF part of mailhealth-check
 * costs about the longest chain of dependent questions (RFC 7208 §4.6.4 counts the same terms).
 *
 * It asks only questions the walk asks: the TXT record of every include target and of a redirect=
 * target (when the record has no "all", §6.1), A (then AAAA when there is no A) for a and exists
 * (exists: A only, §5.7), MX for mx; targets with sender-dependent macros are skipped, as the walk
 * skips them. It follows the walk's bounds — nesting depth and question budget — and stops at an
 * include loop; near the budget the two orders may pick different questions, so a record that
 * spends the whole budget may see a few questions the walk then does not use (never more than the
 * budget). Every failure is ignored here: the walk meets the same failure and reports it.
 */
import type { SpfLookups, SpfTerm } from '../mail/spf.js';
import { expandDomainSpec, parseSpfRecord, selectSpfRecords } from '../mail/spf.js';
import type { TxtAnswer } from '../mail/txt.js';
import { canonicalName } from '../../net/dns-name.js';

export interface SpfPrefetchLimits {
  /** questions in all, the domain's own TXT included (spf.ts's default: 30) */
  maxQueries: number;
  /** include/redirect nesting below the domain (spf.ts's default: 10) */
  maxDepth: number;
}

export const SPF_WALK_LIMITS: SpfPrefetchLimits = { maxQueries: 30, maxDepth: 10 };

export async function prefetchSpfTree(
  lookups: SpfLookups,
  domain: string,
  limits: SpfPrefetchLimits = SPF_WALK_LIMITS,
): Promise<void> {
  let budget = limits.maxQueries;
  const ask = async (
    lookup: ((name: string) => Promise<TxtAnswer>) | undefined,
    name: string,
  ): Promise<TxtAnswer | null> => {
    if (lookup === undefined || budget <= 0) return null;
    budget -= 1;
    try {
      return await lookup(name);
    } catch {
      return null; // the walk asks the same question and reports its failure
    }
  };

  const visit = async (name: string, depth: number, path: readonly string[]): Promise<void> => {
    const answer = await ask(lookups.txt, name);
    if (answer === null || answer.rcode === 'NXDOMAIN') return;
    const record = selectSpfRecords(answer.records)[0];
    if (record === undefined) return;
    const { terms } = parseSpfRecord(record);
    const hasAll = terms.some((t) => t.kind === 'mechanism' && t.name === 'all');
    const follow = (spec: string): Promise<void> => {
      const target = targetOf(spec, name);
      if (target === null || path.includes(target) || depth + 1 > limits.maxDepth) return Promise.resolve();
      return visit(target, depth + 1, [...path, target]);
    };
    await Promise.all(
      terms.map((term) => {
        if (term.kind === 'modifier')
          return term.name === 'redirect' && !hasAll ? follow(term.value) : Promise.resolve();
        return term.kind === 'mechanism' ? mechanismQuestions(term, name) : Promise.resolve();
      }),
    );

    function mechanismQuestions(term: Extract<SpfTerm, { kind: 'mechanism' }>, current: string): Promise<unknown> {
      switch (term.name) {
        case 'include':
          return follow(term.domainSpec ?? '');
        case 'a': {
          const target = targetOf(term.domainSpec ?? current, current);
          if (target === null) return Promise.resolve();
          return ask(lookups.a, target).then((a) =>
            a !== null && (a.rcode === 'NXDOMAIN' || a.records.length === 0) ? ask(lookups.aaaa, target) : null,
          );
        }
        case 'exists': {
          const target = targetOf(term.domainSpec ?? '', current);
          return target === null ? Promise.resolve() : ask(lookups.a, target);
        }
        case 'mx': {
          const target = targetOf(term.domainSpec ?? current, current);
          return target === null ? Promise.resolve() : ask(lookups.mx, target);
        }
        default:
          return Promise.resolve();
      }
    }
  };

  await visit(normalise(domain), 0, [normalise(domain)]);
}

/** The name a domain-spec stands for, or null when it depends on the sender or is no DNS name. */
function targetOf(spec: string, current: string): string | null {
  if (spec === '') return null;
  const expansion = expandDomainSpec(spec, current);
  if (!('domain' in expansion)) return null;
  const name = expansion.domain;
  if (name.includes('\\') || name.length > 253) return null;
  return name.split('.').every((label) => label.length >= 1 && label.length <= 63) ? name : null;
}

function normalise(domain: string): string {
  return canonicalName(domain);
}
