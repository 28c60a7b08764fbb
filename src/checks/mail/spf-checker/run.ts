/**
 * spf-checker: the awaiting part. Its DNS questions go through the check context (once per request, from
 * the TTL cache when fresh, decisions §9); the walk is walk.ts's.
 */
import type { CheckContext } from '../../../loaders/context.js';
import { checkSpf, type SpfCheckResult, type SpfLookups, type SpfTreeNode } from './walk.js';
import { recordLookup, txtLookup } from '../shared/record-lookup.js';

/** The four lookups the SPF walk uses (RFC 7208 §4.6.4: include/redirect TXT, a, mx). */
export function spfLookups(ctx: CheckContext): SpfLookups {
  return {
    txt: txtLookup(ctx),
    a: recordLookup(ctx, 'A'),
    aaaa: recordLookup(ctx, 'AAAA'),
    mx: recordLookup(ctx, 'MX'),
  };
}

/** One node of the evaluated include/redirect tree, in a list: GraphQL (and so REST) has no recursive selections. */
export interface SpfLookupNode {
  /** the position in `lookupTree` of the record that included or redirected to this one; null for the domain itself */
  parent: number | null;
  /** 0 for the domain itself, 1 for what it includes, … */
  depth: number;
  domain: string;
  via: SpfTreeNode['via'];
  status: SpfTreeNode['status'];
  record: string | null;
  lookups: number;
  voidLookups: number;
  notes: string[];
}

/** spf-checker's data: checkSpf's result with the tree as a pre-order list (each node before its subtree). */
export type SpfCheckerResult = Omit<SpfCheckResult, 'lookupTree'> & { lookupTree: SpfLookupNode[] };

export async function runSpfCheck(ctx: CheckContext, domain: string): Promise<SpfCheckerResult> {
  const result = await checkSpf(domain, spfLookups(ctx));
  return { ...result, lookupTree: result.lookupTree === null ? [] : flattenSpfTree(result.lookupTree) };
}

/** Pre-order: a node, then each child's subtree in record order, so reading the list top-down follows the evaluation. */
export function flattenSpfTree(root: SpfTreeNode): SpfLookupNode[] {
  const out: SpfLookupNode[] = [];
  const visit = (node: SpfTreeNode, parent: number | null, depth: number): void => {
    const position = out.length;
    const { children, ...fields } = node;
    out.push({ parent, depth, ...fields, notes: [...fields.notes] });
    for (const child of children) visit(child, position, depth + 1);
  };
  visit(root, null, 0);
  return out;
}
