/**
 * Collection from the zones' own servers (`dnssec.source: authoritative`), walking the delegations
 * from the root servers (RFC 1034 §5.3.3) with RD clear, DO and CD set:
 *
 *   1. ask the current zone's servers the question itself: an authoritative answer ends the walk; a
 *      referral (NS records of a zone below, no AA) names the next zone cut;
 *   2. for that cut, at once: its DS from the current zone's servers (RFC 4035 §3.1.4.1: the parent
 *      answers for DS) and the addresses of its NS hosts through the system resolver — our responses
 *      keep no glue — each address passing the target guard (decisions §7: NS records are the
 *      caller's data);
 *   3. from the new zone's servers, at once: its DNSKEY and step 1 again.
 *
 * Every question goes through the check context (coalesced, cached, charged to the budget); the
 * walk stops at the contract's bounds (60 questions, 20 s) and reports what it could not ask as a failure.
 */
import type { HostPort } from '../../../config.js';
import { parseHostPort } from '../../../config.js';
import type { CheckContext } from '../../../loaders/context.js';
import type { DnsResponse, RecordType } from '../../../probes/dns/client.js';
import { nameServerAddresses } from '../dns-propagation/name-server-addresses.js';
import { MAX_CHAIN_MS, MAX_CHAIN_QUESTIONS } from './bounds.js';
import type { Collected } from './collect-resolver.js';
import { askedOrFailure } from './failures.js';
import { isAtOrBelow, labelCount, normalName, sameName } from './names.js';
import type { Asked, NameObservations, TrustAnchor } from './observations.js';

/** Servers of one zone asked in turn when one fails: more would only add questions. */
const SERVERS_PER_ZONE = 3;

type WalkContext = Pick<CheckContext, 'dns' | 'now' | 'addresses' | 'guard' | 'ports' | 'config'>;

export async function collectAuthoritatively(
  ctx: WalkContext,
  qname: string,
  qtype: RecordType,
  anchors: readonly TrustAnchor[],
): Promise<Collected> {
  const started = Date.now();
  let questions = 0;
  const budgetLeft = () => questions < MAX_CHAIN_QUESTIONS && Date.now() - started < MAX_CHAIN_MS;
  const askZone = async (servers: readonly HostPort[], name: string, type: RecordType): Promise<Asked> => {
    let last: Asked = { failure: `no server of the zone could be asked for ${name} ${type}` };
    for (const server of servers.slice(0, SERVERS_PER_ZONE)) {
      if (!budgetLeft())
        return {
          failure: `not asked: the chain reached its bound of ${MAX_CHAIN_QUESTIONS} questions or ${MAX_CHAIN_MS / 1000} s`,
        };
      questions += 1;
      last = await askedOrFailure(
        ctx.dns({ name, type, server, dnssecOk: true, checkingDisabled: true, recursionDesired: false }),
      );
      if (last.response) return last;
    }
    return last;
  };

  const anchorZone = anchors[0]!.owner;
  let zone = anchorZone;
  let servers: HostPort[] = ctx.config.dnssec.rootServers.map((s) => parseHostPort(s, 53)!);
  const names: NameObservations[] = [];
  let ds: Asked | null = null;
  for (let depth = 0; depth <= labelCount(qname); depth++) {
    const [dnskey, step] = await Promise.all([askZone(servers, zone, 'DNSKEY'), askZone(servers, qname, qtype)]);
    names.push({ name: zone, ds, dnskey });
    const cut = step.response ? referral(step.response, zone, qname) : null;
    if (cut === null)
      return {
        observations: { qname, qtype, anchors, names, answer: step, nowSeconds: Math.floor(ctx.now() / 1000) },
        questions,
      };
    const [cutDs, cutServers] = await Promise.all([
      askZone(servers, cut.zone, 'DS'),
      nameServerAddresses(ctx, cut.hosts.slice(0, SERVERS_PER_ZONE)),
    ]);
    ds = cutDs;
    zone = cut.zone;
    servers = cutServers;
    if (servers.length === 0) {
      const failure: Asked = {
        failure: `no address of a name server of ${zone} (${cut.hosts.join(', ')}) could be found or may be asked`,
      };
      names.push({ name: zone, ds, dnskey: failure });
      return {
        observations: { qname, qtype, anchors, names, answer: failure, nowSeconds: Math.floor(ctx.now() / 1000) },
        questions,
      };
    }
  }
  const failure: Asked = { failure: `the delegations of ${qname} do not end` };
  return {
    observations: { qname, qtype, anchors, names, answer: failure, nowSeconds: Math.floor(ctx.now() / 1000) },
    questions,
  };
}

/** A referral (RFC 1034 §4.3.2 step 3b): no AA, NS records in the authority section for a zone below `zone` holding `qname`. */
function referral(response: DnsResponse, zone: string, qname: string): { zone: string; hosts: string[] } | null {
  if (response.authoritative || response.answers.length > 0) return null;
  const ns = response.authority.filter(
    (r) => r.type === 'NS' && isAtOrBelow(qname, r.name) && !sameName(r.name, zone) && isAtOrBelow(r.name, zone),
  );
  const first = ns[0];
  if (first === undefined) return null;
  const child = normalName(first.name);
  return {
    zone: child,
    hosts: [...new Set(ns.filter((r) => sameName(r.name, child)).map((r) => normalName(String(r.data))))].sort(),
  };
}
