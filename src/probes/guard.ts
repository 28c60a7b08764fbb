/**
 * The target guard (decisions §7): before any probe opens a connection to a
 * caller's target, every address the target stands for is checked, and the
 * probe connects only to an address the guard returned (no second resolution,
 * so a DNS rebinding answer gets nowhere). After connecting, a probe re-checks
 * the socket's `remoteAddress` with `assertAllowed` (undici does not call its
 * lookup hook for IP literals).
 *
 * The guard itself sends nothing: resolution is injected.
 */
import { decidedBeforeUpstream, InputError, TargetRefusedError } from '../errors.js';
import { classifyAddress, compileCidrs, normaliseIp, parseIp } from '../net/address-class.js';
import type { HostOrIp } from '../validation.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** A and AAAA resolution; failures are ProbeErrors, an existing name without addresses is []. */
export type Resolve = (hostname: string, signal?: AbortSignal) => Promise<ResolvedAddress[]>;

export interface CheckedTarget {
  input: string;
  /** null for IP literals */
  hostname: string | null;
  /** canonical, de-duplicated; IPv4-mapped IPv6 addresses are given as the IPv4 address */
  addresses: ResolvedAddress[];
}

/**
 * Where a target came from (decisions §1: only a refusal of what the caller gave, decided before the first
 * packet, is given its price back): `caller`, the request's own argument; `upstream`, a name or URL read
 * out of an answer (a certificate's caIssuers URL, a redirect's Location, a policy or record, a callback
 * URL at delivery). Unmarked means upstream, so that a refusal nobody vouched for is charged, never free.
 */
export type TargetOrigin = 'caller' | 'upstream';

export interface TargetGuard {
  /**
   * Resolves a hostname and checks EVERY address: one special-purpose address
   * that `targets.allow` does not exempt refuses the whole target
   * (TargetRefusedError). A name with no A or AAAA record is an InputError
   * naming `parameter`. Resolution errors (ProbeError) propagate unchanged.
   * A refused address literal the caller gave (`origin` caller) is marked as decided before upstream.
   */
  check(target: HostOrIp, signal?: AbortSignal, parameter?: string, origin?: TargetOrigin): Promise<CheckedTarget>;
  /** Checks one address (a socket's remoteAddress after connect, or an IP literal); throws TargetRefusedError. */
  assertAllowed(address: string, targetForMessage: string): void;
}

export interface TargetGuardOptions {
  /** `targets.allow`: CIDRs exempt from the refusal; an IPv4 CIDR also covers the IPv4-mapped IPv6 forms */
  allow: readonly string[];
  resolve: Resolve;
}

export function createTargetGuard(options: TargetGuardOptions): TargetGuard {
  const allowed = compileCidrs(options.allow);
  const { resolve } = options;

  /** Returns the canonical address, or throws TargetRefusedError. */
  function admit(address: string, targetForMessage: string): ResolvedAddress {
    // A socket may report a link-local peer with its zone ("fe80::1%eth0"); the
    // zone is kept for connecting but plays no part in the classification.
    const zoneAt = address.includes(':') ? address.indexOf('%') : -1;
    const bare = zoneAt >= 0 ? address.slice(0, zoneAt) : address;
    // Fail closed: text that is not an IP address is never connected to.
    if (parseIp(bare) === null) throw new TargetRefusedError(targetForMessage, address, 'unrecognised');
    const { ip, family } = normaliseIp(bare);
    const checked = { address: zoneAt >= 0 && family === 6 ? ip + address.slice(zoneAt) : ip, family };
    if (allowed.has(ip)) return checked;
    const verdict = classifyAddress(bare);
    if (verdict.special) throw new TargetRefusedError(targetForMessage, address, verdict.range);
    return checked;
  }

  return {
    assertAllowed(address, targetForMessage) {
      admit(address, targetForMessage);
    },

    async check(target, signal, parameter = 'target', origin = 'upstream') {
      if (target.kind === 'ip') {
        // An address literal is refused before any packet. Its price is given back only when the caller
        // gave it (decisions §1): a literal read out of an upstream answer (a caIssuers URL, a redirect)
        // was met after the check had sent something. A name is resolved first, so its refusal comes
        // after a question upstream and is charged whoever gave it.
        try {
          return { input: target.ip, hostname: null, addresses: [admit(target.ip, target.ip)] };
        } catch (e) {
          throw origin === 'caller' ? decidedBeforeUpstream(e) : e;
        }
      }
      const { hostname } = target;
      const resolved = await resolve(hostname, signal);
      if (resolved.length === 0) {
        throw new InputError(
          parameter,
          `${parameter}: ${hostname} has no A or AAAA record, so there is no address to check`,
        );
      }
      const addresses: ResolvedAddress[] = [];
      for (const { address } of resolved) {
        const admitted = admit(address, hostname);
        if (!addresses.some((a) => a.address === admitted.address)) addresses.push(admitted);
      }
      return { input: hostname, hostname, addresses };
    },
  };
}
