/**
 * A DNSSEC lab on loopback, built at test time: zones signed with fresh keys, served by an
 * authoritative unbound, resolved by a validating unbound whose only trust anchor is the lab's
 * top-level zone "lab." (never the real root). One delegation per verdict of dnssec-test:
 *
 *   secure.lab    signed, DS in lab.                                 enabled
 *   island.lab    signed, no DS in lab. (NSEC proves the absence)    insecure
 *   plain.lab     unsigned, no DS                                    disabled
 *   expired.lab   signed, DS in lab., every RRSIG expired 10 days ago bogus
 *   badsig.lab    signed, DS in lab., the DNSKEY RRSIG damaged       bogus
 *
 * Every delegation names ns.lab. (127.0.0.1), but the resolver reaches the zones through stub zones
 * on the authoritative server's port: glue cannot carry a port.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HostPort } from '../../src/config.js';
import { startUnboundAuthoritative, startUnboundResolver, type UnboundServer } from './unbound.js';
import {
  corruptSignature,
  currentValidity,
  expiredValidity,
  generateKey,
  signZone,
  writeZoneFile,
} from './zone-signing.js';

export const DNSSEC_LAB_ZONES = {
  enabled: 'secure.lab',
  insecure: 'island.lab',
  disabled: 'plain.lab',
  bogusExpired: 'expired.lab',
  bogusSignature: 'badsig.lab',
} as const;

export interface DnssecLab {
  /** the validating resolver */
  readonly resolver: HostPort;
  /** the authoritative server of every lab zone */
  readonly authoritative: HostPort;
  /** both servers' logs, for a failing test's message */
  logs(): string;
  close(): Promise<void>;
}

const SOA = '@ IN SOA ns.lab. hostmaster.lab. 1 3600 600 86400 60';

function childZoneLines(extra: readonly string[] = []): string[] {
  return [SOA, '@ IN NS ns.lab.', '@ IN A 192.0.2.1', 'www IN A 192.0.2.2', ...extra];
}

export interface DnssecLabOptions {
  /** more zone-file lines for a lab zone, signed with it (e.g. TLSA records and an MX host's address for dane) */
  readonly extraLines?: Partial<Record<keyof typeof DNSSEC_LAB_ZONES, readonly string[]>>;
}

export async function startDnssecLab(options: DnssecLabOptions = {}): Promise<DnssecLab> {
  const extra = options.extraLines ?? {};
  const dir = mkdtempSync(join(tmpdir(), 'netdiag-dnssec-'));
  const servers: UnboundServer[] = [];
  const close = async () => {
    await Promise.all(servers.map((s) => s.close()));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const valid = currentValidity();
    const { enabled, insecure, disabled, bogusExpired, bogusSignature } = DNSSEC_LAB_ZONES;
    const [rootKey, enabledKey, insecureKey, expiredKey, badsigKey] = await Promise.all([
      generateKey(dir, 'lab'),
      generateKey(dir, enabled),
      generateKey(dir, insecure),
      generateKey(dir, bogusExpired),
      generateKey(dir, bogusSignature),
    ]);

    const children = await Promise.all([
      signZone(writeZoneFile(dir, enabled, childZoneLines(extra.enabled)), enabledKey, valid).then((zonefile) => ({
        name: enabled,
        zonefile,
      })),
      signZone(writeZoneFile(dir, insecure, childZoneLines(extra.insecure)), insecureKey, valid).then((zonefile) => ({
        name: insecure,
        zonefile,
      })),
      { name: disabled, zonefile: writeZoneFile(dir, disabled, childZoneLines(extra.disabled)) },
      signZone(
        writeZoneFile(dir, bogusExpired, childZoneLines(extra.bogusExpired)),
        expiredKey,
        expiredValidity(),
      ).then((zonefile) => ({
        name: bogusExpired,
        zonefile,
      })),
      signZone(writeZoneFile(dir, bogusSignature, childZoneLines(extra.bogusSignature)), badsigKey, valid).then(
        (zonefile) => {
          corruptSignature(zonefile, bogusSignature, 'DNSKEY');
          return { name: bogusSignature, zonefile };
        },
      ),
    ]);
    const labZone = writeZoneFile(dir, 'lab', [
      SOA,
      '@ IN NS ns.lab.',
      'ns IN A 127.0.0.1',
      ...children.map((child) => `${child.name}. IN NS ns.lab.`),
      // secure delegations: the DS records of the signed children that should validate or fail
      enabledKey.ds,
      expiredKey.ds,
      badsigKey.ds,
    ]);
    const labSigned = await signZone(labZone, rootKey, valid);

    const authoritative = await startUnboundAuthoritative(dir, [{ name: 'lab', zonefile: labSigned }, ...children]);
    servers.push(authoritative);
    const resolver = await startUnboundResolver(dir, {
      trustAnchors: [rootKey.ds],
      stubs: ['lab', ...children.map((c) => c.name)].map((name) => ({ name, server: authoritative.address })),
    });
    servers.push(resolver);

    return {
      resolver: resolver.address,
      authoritative: authoritative.address,
      logs: () => servers.map((s) => s.log()).join('\n'),
      close,
    };
  } catch (e) {
    await close();
    throw e;
  }
}
