/**
 * dnssec-test: what the system resolver (a validating resolver in production) concludes about a
 * domain, read from three questions asked in parallel, all with DO set (RFC 3225) so the resolver
 * handles DNSSEC data:
 *   1. DNSKEY without CD: AD set means every RRset of the answer was authenticated (RFC 4035 §3.2.3,
 *      RFC 6840 §5.8); SERVFAIL may mean the data does not validate;
 *   2. DNSKEY with CD (RFC 4035 §3.2.2: do not validate): the keys the zone publishes, and whether
 *      the question can be answered at all, which tells a validation failure (bogus) from a zone
 *      that fails anyway (a 502);
 *   3. DS with CD: whether the parent zone holds a DS RRset for the name (a secure delegation,
 *      RFC 4035 §2.4); the resolver asks the parent zone's servers for it.
 * The verdict is dnssec.ts's decision table. A resolver that does not validate never sets AD, so
 * against one every signed zone reads `insecure` (documented in docs/tools/notes/dnssec-test.md).
 */
import type { HostPort } from '../../../config.js';
import { recordsOfType, type DnsResponse } from '../../../probes/dns/client.js';
import { ProbeError } from '../../../probes/errors.js';
import type { CheckContext } from '../../../loaders/context.js';
import { dnssecVerdict, type DnssecStatus } from './dnssec.js';

export interface DnssecTestResult {
  domain: string;
  /** DNSKEY records at the name */
  keyCount: number;
  /** the chain of trust validates (status `enabled`) */
  validated: boolean;
  status: DnssecStatus;
  /** the rule that decided, in one sentence */
  reason: string;
  /** the parent zone holds a DS record for the name */
  dsPresent: boolean;
  /** the resolver set AD on the DNSKEY answer asked without CD */
  authenticated: boolean;
  /** NXDOMAIN when the name does not exist (an authenticated NXDOMAIN still reads `enabled`) */
  rcode: 'NOERROR' | 'NXDOMAIN';
}

export async function runDnssecTest(ctx: CheckContext, domain: string): Promise<DnssecTestResult> {
  const server = ctx.systemResolver;
  const ask = (type: 'DNSKEY' | 'DS', checkingDisabled: boolean) =>
    ctx.dns({ name: domain, type, server, dnssecOk: true, checkingDisabled });
  const [validating, unchecked, delegation] = await Promise.allSettled([
    ask('DNSKEY', false),
    ask('DNSKEY', true),
    ask('DS', true),
  ]);

  const servfailWithoutCd = validating.status === 'rejected' && isServfail(validating.reason);
  if (validating.status === 'rejected' && !servfailWithoutCd) throw validating.reason;
  // Here a failed question 1 is a SERVFAIL. When question 2 failed too, a SERVFAIL is row 2 of the table
  // (a 502) and anything else (a time-out) is thrown as it is; when only question 2 failed, the keys
  // are read from the validated answer.
  if (validating.status === 'rejected' && unchecked.status === 'rejected' && !isServfail(unchecked.reason))
    throw unchecked.reason;

  const keys: DnsResponse | undefined =
    unchecked.status === 'fulfilled'
      ? unchecked.value
      : validating.status === 'fulfilled'
        ? validating.value
        : undefined;
  const authenticated = validating.status === 'fulfilled' && validating.value.authenticData;
  const dsPresent = delegation.status === 'fulfilled' && recordsOfType(delegation.value, domain, 'DS').length > 0;
  const verdict = dnssecVerdict({
    dnskeyCount: keys ? recordsOfType(keys, domain, 'DNSKEY').length : 0,
    adWithDo: authenticated,
    servfailWithoutCd,
    answerWithCd: unchecked.status === 'fulfilled',
    dsPresent,
    resolver: formatServer(server),
  });
  // dnssecVerdict throws for row 2 (SERVFAIL with and without CD), which outranks a failed DS
  // question; every other verdict needs the DS answer.
  if (delegation.status === 'rejected') throw delegation.reason;
  return {
    domain,
    keyCount: verdict.keyCount,
    validated: verdict.validated,
    status: verdict.status,
    reason: verdict.reason,
    dsPresent,
    authenticated,
    rcode: (keys ?? delegation.value).rcode,
  };
}

function isServfail(e: unknown): boolean {
  return e instanceof ProbeError && e.kind === 'SERVFAIL';
}

function formatServer(server: HostPort): string {
  return server.host.includes(':') ? `[${server.host}]:${server.port}` : `${server.host}:${server.port}`;
}
