/**
 * tls-configuration: the awaiting part. The target goes through the guard and every handshake through the
 * check context's loaders (so each distinct handshake runs once per request); what the answers mean is decided
 * by configuration.ts and the TLS probe's protocols.ts.
 */
import { ProbeError } from '../../../probes/errors.js';
import { localTlsSupport, type TlsHandshakeResult } from '../../../probes/tls/prober.js';
import type { CheckContext } from '../../../loaders/context.js';
import { tlsConfigurationData, type FamilyProbe, type TlsConfigurationData } from './configuration.js';
import { protocolVerdicts, TLS_PROTOCOL_VERSIONS, type TlsProtocolVersion } from '../../../probes/tls/protocols.js';
import { firstAddressPerFamily, preferredAddress, mainHandshake } from '../shared/main-handshake.js';

export interface TlsConfigurationResult extends TlsConfigurationData {
  port: number;
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
