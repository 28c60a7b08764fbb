/**
 * A DNSSEC lab with real delegations, for dnssec-chain's `dnssec.source: authoritative` walk: three
 * authoritative unbounds on one port, each on its own loopback address — the lab root on 127.0.0.1,
 * "lab." on 127.0.0.2, the zones below on 127.0.0.3 — so that each answers with referrals (NS and
 * glue or DS) for what it delegates, as the real hierarchy does. The walk asks every server on that
 * one port (the `dnsAuthoritativePort` seam); a validating unbound (stub zones per server) resolves
 * the name servers' addresses.
 *
 *   secure.lab   DS in lab., signed              secure
 *   expired.lab  DS in lab., RRSIGs expired      bogus (RRSIG_EXPIRED)
 *   island.lab   no DS (NSEC proves it), signed  insecure
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HostPort } from '../../src/config.js';
import { freePort, startUnboundAuthoritative, startUnboundResolver, type UnboundServer } from './unbound.js';
import { expiredValidity, generateKey, signZone, writeZoneFile, type Validity } from './zone-signing.js';

export const DNSSEC_WALK_ZONES = { secure: 'secure.lab', expired: 'expired.lab', island: 'island.lab' } as const;

export interface DnssecWalkLab {
  /** the port every authoritative server listens on */
  readonly port: number;
  /** the lab root's server: the walk's only root server */
  readonly root: HostPort;
  /** the validating resolver, for the name servers' addresses */
  readonly resolver: HostPort;
  readonly trustAnchor: string;
  logs(): string;
  close(): Promise<void>;
}

const SOA = '@ IN SOA ns.lab. hostmaster.lab. 1 3600 600 86400 60';
const ROOT_HOST = '127.0.0.1';
const LAB_HOST = '127.0.0.2';
const CHILD_HOST = '127.0.0.3';

export async function startDnssecWalkLab(): Promise<DnssecWalkLab> {
  const dir = mkdtempSync(join(tmpdir(), 'netdiag-dnssec-walk-'));
  const servers: UnboundServer[] = [];
  const close = async () => {
    await Promise.all(servers.map((s) => s.close()));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const now = Math.floor(Date.now() / 1000);
    const valid: Validity = { inception: now - 3600, expiration: now + 30 * 86400 };
    const Z = DNSSEC_WALK_ZONES;
    const [rootKey, labKey, secureKey, expiredKey, islandKey] = await Promise.all(
      ['.', 'lab', Z.secure, Z.expired, Z.island].map((zone) => generateKey(dir, zone)),
    );
    const childLines = [SOA, '@ IN NS ns.children.lab.', '@ IN A 192.0.2.1', 'www IN A 192.0.2.2'];
    const children = await Promise.all([
      signZone(writeZoneFile(dir, Z.secure, childLines), secureKey!, valid),
      signZone(writeZoneFile(dir, Z.expired, childLines), expiredKey!, expiredValidity(10, now)),
      signZone(writeZoneFile(dir, Z.island, childLines), islandKey!, valid),
    ]);
    const labSigned = await signZone(
      writeZoneFile(dir, 'lab', [
        SOA,
        '@ IN NS ns.lab.',
        `ns IN A ${LAB_HOST}`,
        `ns.children IN A ${CHILD_HOST}`,
        ...Object.values(Z).map((zone) => `${zone}. IN NS ns.children.lab.`),
        secureKey!.ds,
        expiredKey!.ds,
      ]),
      labKey!,
      valid,
    );
    const rootSigned = await signZone(
      writeZoneFile(dir, '.', [SOA, '@ IN NS ns.lab.', 'lab. IN NS ns.lab.', `ns.lab. IN A ${LAB_HOST}`, labKey!.ds]),
      rootKey!,
      valid,
    );

    const port = await freePort();
    const root = await startUnboundAuthoritative(dir, [{ name: '.', zonefile: rootSigned }], {
      host: ROOT_HOST,
      port,
      role: 'root',
    });
    servers.push(root);
    servers.push(
      await startUnboundAuthoritative(dir, [{ name: 'lab', zonefile: labSigned }], {
        host: LAB_HOST,
        port,
        role: 'lab',
      }),
    );
    const zones = Object.values(Z).map((name, i) => ({ name, zonefile: children[i]! }));
    servers.push(await startUnboundAuthoritative(dir, zones, { host: CHILD_HOST, port, role: 'children' }));
    const resolver = await startUnboundResolver(dir, {
      trustAnchors: [rootKey!.ds],
      stubs: [
        { name: '.', server: { host: ROOT_HOST, port } },
        { name: 'lab', server: { host: LAB_HOST, port } },
        ...Object.values(Z).map((name) => ({ name, server: { host: CHILD_HOST, port } })),
      ],
    });
    servers.push(resolver);
    return {
      port,
      root: root.address,
      resolver: resolver.address,
      trustAnchor: rootKey!.ds,
      logs: () => servers.map((s) => s.log()).join('\n'),
      close,
    };
  } catch (e) {
    await close();
    throw e;
  }
}
