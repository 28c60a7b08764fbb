/**
 * spf-checker, dkim-checker and dmarc-checker: the awaiting part. Every question goes to the system
 * resolver through the check context (asked once per request, served from the TTL cache when fresh,
 * decisions §9), so mailhealth-check reuses the answers of these checks. The rules are spf/ (syntax, macro, walk),
 * dkim.ts's and dmarc.ts's.
 */
import { recordsOfType, type RecordType } from '../../../probes/dns/client.js';
import type { CheckContext } from '../../../loaders/context.js';
import { recordText } from '../../dns/shared/records.js';
import { dkimRecordName, evaluateDkim, type DkimCheckResult } from '../dkim-checker/dkim.js';
import { checkDmarc, type DmarcCheckResult } from '../dmarc-checker/dmarc.js';
import { checkTlsRpt, type TlsRptCheckResult } from '../../mail-transport/tls-rpt/tls-rpt.js';
import { checkSpf, type SpfCheckResult, type SpfLookups, type SpfTreeNode } from '../spf-checker/walk.js';
import type { TxtAnswer, TxtLookup } from './txt.js';

/**
 * The records of `type` at `name` (through a CNAME chain) in their text form: TXT strings joined
 * (RFC 7208 §3.3), addresses, "10 mx.example.com". NXDOMAIN and NODATA are answers; a failed
 * question throws its ProbeError.
 */
export function recordLookup(ctx: CheckContext, type: RecordType): (name: string) => Promise<TxtAnswer> {
  return async (name) => {
    const response = await ctx.resolve(name, type);
    return { rcode: response.rcode, records: recordsOfType(response, name, type).map(recordText) };
  };
}

export function txtLookup(ctx: CheckContext): TxtLookup {
  return recordLookup(ctx, 'TXT');
}

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

/** The key record at `<selector>._domainkey.<domain>` (RFC 6376 §3.6.2.1). */
export async function runDkimCheck(ctx: CheckContext, domain: string, selector: string): Promise<DkimCheckResult> {
  const answer = await txtLookup(ctx)(dkimRecordName(selector, domain));
  return evaluateDkim(domain, selector, answer);
}

/** The policy at `_dmarc.<domain>`, else at the organisational domain (RFC 7489 §6.6.3). */
export async function runDmarcCheck(ctx: CheckContext, domain: string): Promise<DmarcCheckResult> {
  return checkDmarc(domain, txtLookup(ctx));
}

export async function runTlsRptCheck(ctx: CheckContext, domain: string): Promise<TlsRptCheckResult> {
  return checkTlsRpt(domain, txtLookup(ctx));
}
