/**
 * ssl-checker, tls-configuration and port-checker: the awaiting part. Targets go
 * through the guard and connections through the check context's loaders (so each
 * distinct handshake runs once per request); what the answers mean is decided by the
 * pure modules beside this one (certificate.ts, configuration.ts) and those the TLS and TCP probes
 * own (probes/tls/protocols.ts, probes/tcp/port-state.ts).
 */
import { ProbeError } from '../../../probes/errors.js';
import { localTlsSupport, type TlsHandshakeResult } from '../../../probes/tls/prober.js';
import type { ResolvedAddress } from '../../../probes/guard.js';
import type { HostOrIp } from '../../../validation.js';
import type { CheckContext } from '../../../loaders/context.js';
import { sslCheckerData, type SslCheckerData } from './certificate.js';
import {
  tlsConfigurationData,
  type FamilyProbe,
  type TlsConfigurationData,
} from '../tls-configuration/configuration.js';
import type { TlsQuestion } from '../../../loaders/connections.js';
import { portCheckerData, type PortCheckerData } from '../../../probes/tcp/port-state.js';
import { protocolVerdicts, TLS_PROTOCOL_VERSIONS, type TlsProtocolVersion } from '../../../probes/tls/protocols.js';

/**
 * ALPN offered by the main handshake, as a browser does: "h2" first, so that
 * `negotiated.http2` says whether the server would speak HTTP/2 (RFC 7301, RFC 9113 §3.2).
 * ssl-checker offers the same, so that its handshake and tls-configuration's are one
 * question when an operation asks both.
 */
export const MAIN_HANDSHAKE_ALPN: readonly string[] = ['h2', 'http/1.1'];

export interface SslCheckerResult extends SslCheckerData {
  /** the address connected to */
  ip: string;
  port: number;
}

export interface TlsConfigurationResult extends TlsConfigurationData {
  port: number;
}

export interface PortCheckerResult extends PortCheckerData {
  /** the address connected to */
  ip: string;
  /** why the port counts as filtered ("no answer within 5000 ms", "EHOSTUNREACH"); null when open or closed */
  reason: string | null;
}

/** One address per family the target has, IPv4 first; each the first of its family in resolution order. */
export function firstAddressPerFamily(addresses: readonly ResolvedAddress[]): ResolvedAddress[] {
  return ([4, 6] as const).flatMap((family) => addresses.find((a) => a.family === family) ?? []);
}

/** The address a single-connection check uses: the first IPv4 address, else the first IPv6 one. */
function preferredAddress(addresses: readonly ResolvedAddress[]): string {
  const first = firstAddressPerFamily(addresses)[0];
  // The guard never returns an empty list (a name without addresses is its InputError).
  if (first === undefined) throw new RangeError('the target guard returned no address');
  return first.address;
}

function mainHandshake(domain: string, ip: string, port: number): TlsQuestion {
  return { ip, port, servername: domain, alpn: MAIN_HANDSHAKE_ALPN, target: domain };
}

/** ssl-checker: one handshake with SNI; a failed handshake is an error (502/504), since there is no certificate to judge. */
export async function runSslChecker(
  ctx: CheckContext,
  input: { domain: string; port: number },
): Promise<SslCheckerResult> {
  const { domain, port } = input;
  const checked = await ctx.guard.check({ kind: 'hostname', hostname: domain }, ctx.signal, 'domain');
  const ip = preferredAddress(checked.addresses);
  const handshake = await ctx.tlsHandshake(mainHandshake(domain, ip, port));
  return { ...sslCheckerData(domain, handshake, new Date(ctx.now())), ip, port };
}

/**
 * The outcomes of a check's handshakes are findings (api-v1.md Errors 6–7) only when
 * the server's side caused them. A refused remote address (TargetRefusedError), the
 * request ending (ABORTED) or a bug is the check failing: passed on.
 */
function assertFindings(outcomes: readonly (PromiseSettledResult<unknown> | null)[]): void {
  for (const outcome of outcomes) {
    if (outcome?.status !== 'rejected') continue;
    const reason: unknown = outcome.reason;
    if (!(reason instanceof ProbeError) || reason.kind === 'ABORTED') throw reason;
  }
}

function settle<T>(promise: Promise<T>): Promise<PromiseSettledResult<T>> {
  return promise.then(
    (value) => ({ status: 'fulfilled', value }),
    (reason: unknown) => ({ status: 'rejected', reason }),
  );
}

/**
 * tls-configuration: every handshake at once — the main one (default version range,
 * SNI, ALPN), the same without SNI (decisions §5: is SNI required?), one per other IP
 * family, and one pinned to each version this side can offer — each bounded by the
 * connect and handshake bounds, so the whole check takes as long as its slowest handshake.
 */
export async function runTlsConfiguration(
  ctx: CheckContext,
  input: { domain: string; port: number },
): Promise<TlsConfigurationResult> {
  const { domain, port } = input;
  const checked = await ctx.guard.check({ kind: 'hostname', hostname: domain }, ctx.signal, 'domain');
  const families = firstAddressPerFamily(checked.addresses);
  const ip = preferredAddress(checked.addresses);
  const main = mainHandshake(domain, ip, port);
  const localSupport = await localTlsSupport();

  const pinned = (version: TlsProtocolVersion): Promise<PromiseSettledResult<TlsHandshakeResult>> | null =>
    localSupport[version]
      ? settle(
          ctx.tlsHandshake({ ip, port, servername: domain, minVersion: version, maxVersion: version, target: domain }),
        )
      : null;

  const [primary, withoutSni, familyOutcomes, versionOutcomes] = await Promise.all([
    settle(ctx.tlsHandshake(main)),
    settle(ctx.tlsHandshake({ ...main, servername: null })),
    // The family of `ip` asks the main question again: the loader answers it from the first.
    Promise.all(families.map((a) => settle(ctx.tlsHandshake(mainHandshake(domain, a.address, port))))),
    Promise.all(TLS_PROTOCOL_VERSIONS.map(pinned)),
  ]);
  assertFindings([primary, withoutSni, ...familyOutcomes, ...versionOutcomes]);

  const familyProbes: FamilyProbe[] = families.map((a, i) => ({
    family: a.family,
    ip: a.address,
    outcome: familyOutcomes[i]!,
  }));
  const outcomesByVersion: Partial<Record<TlsProtocolVersion, PromiseSettledResult<{ protocol: string }>>> = {};
  TLS_PROTOCOL_VERSIONS.forEach((version, i) => {
    const outcome = versionOutcomes[i];
    if (outcome) outcomesByVersion[version] = outcome;
  });

  const data = tlsConfigurationData({
    domain,
    ip,
    primary,
    sniSent: true,
    withoutSni,
    families: familyProbes,
    protocols: protocolVerdicts(localSupport, outcomesByVersion),
    now: new Date(ctx.now()),
  });
  return { ...data, port };
}

/** port-checker: one TCP connection attempt to the target's preferred address. */
export async function runPortChecker(
  ctx: CheckContext,
  input: { host: HostOrIp; port: number },
): Promise<PortCheckerResult> {
  const { host, port } = input;
  const checked = await ctx.guard.check(host, ctx.signal, 'host');
  const ip = preferredAddress(checked.addresses);
  const outcome = await ctx.tcpProbe({ ip, port, target: checked.input });
  return { ...portCheckerData(checked.input, port, outcome), ip, reason: outcome.error };
}
