import { MAIL_TRANSPORT_MAX_HOSTS } from '../../../loaders/fan-out-limits.js';
import { partNotTested, type NotTestedReason, type PartNotTested } from './details.js';
import type { HealthCheckStatus } from '../shared/verdict.js';
import { withoutFinalStop } from '../shared/finding.js';

/** What a per-host part learnt of one MX host. */
export type HostFacts<R> =
  /** the single check's result */
  | { host: string; result: R }
  /** the host could not be tested: refused by the target rules, no address, a failed resolution */
  | { host: string; failure: string }
  /** beyond the first MAIL_TRANSPORT_MAX_HOSTS by priority: left out on purpose */
  | { host: string; omitted: true };

export interface TransportFinding<D> {
  status: HealthCheckStatus;
  summary: string;
  error?: string;
  details: D;
}

/** A per-host part's finding about one MX host; host null: about the domain (it has no MX host to test). */
export interface HostFinding<D> extends TransportFinding<D> {
  host: string | null;
}

/** What the mx part knows (the domain takes no mail, or has no MX host to test), and whether SMTP probes run. */
export interface MxContext {
  nullMx: boolean;
  hostCount: number;
  /** config smtp.enabled: false where outbound port 25 is blocked */
  smtpProbes: boolean;
}

export function noHosts(mx: MxContext): { status: HealthCheckStatus; summary: string; reason: NotTestedReason } | null {
  if (mx.nullMx)
    return {
      status: 'info',
      summary: 'The domain accepts no mail (null MX): there is no mail server to test.',
      reason: 'null-mx',
    };
  if (mx.hostCount === 0)
    return {
      status: 'info',
      summary: 'The domain has no MX host to test (see the MX check).',
      reason: 'no-mx-hosts',
    };
  return null;
}

/**
 * One finding per MX host, by `judge` for a host with a result; the same words for the hosts that were
 * not tested in either part; a single info finding when there is no MX host at all. A host without a
 * result has details all the same, saying why (PartNotTested).
 */
export function perHostFindings<R, D>(
  hosts: readonly HostFacts<R>[],
  mx: MxContext,
  judge: (host: string, result: R) => TransportFinding<D>,
): HostFinding<D | PartNotTested>[] {
  const none = noHosts(mx);
  if (none) return [{ host: null, status: none.status, summary: none.summary, details: partNotTested(none.reason) }];
  return hosts.map((facts): HostFinding<D | PartNotTested> => {
    const { host } = facts;
    if ('result' in facts) return { host, ...judge(host, facts.result) };
    if ('omitted' in facts)
      return {
        host,
        status: 'info',
        summary: `${host} was not tested: only the first ${MAIL_TRANSPORT_MAX_HOSTS} MX hosts by priority are (senders seldom get further).`,
        details: partNotTested('beyond-host-limit', [host]),
      };
    return {
      host,
      status: 'error',
      error: facts.failure,
      summary: `${host} could not be tested (${withoutFinalStop(facts.failure)}); run the health check again, and if it persists, check the host's address records.`,
      details: partNotTested('host-not-testable', [host]),
    };
  });
}
