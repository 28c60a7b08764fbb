/**
 * The DNSSEC lab of dnssec-chain, built at test time on loopback: a signed root zone of its own
 * (never the real root), the top-level zone "lab." under it, and under "lab." one zone per way a
 * chain can break (DNSSEC_CHAIN_ZONES). One authoritative unbound serves every zone; a validating
 * unbound whose only trust anchor is the lab root's DS resolves them, reaching each zone through a
 * stub zone on the authoritative server's port (glue cannot carry a port). `lame.lab` is stubbed to
 * a loopback port where nothing listens: its questions fail.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HostPort } from '../../src/config.js';
import { startUnboundAuthoritative, startUnboundResolver, type UnboundServer } from './unbound.js';
import {
  corruptSignature,
  expiredValidity,
  generateKey,
  removeRecords,
  removeSignatures,
  revokeKey,
  sha1Ds,
  signZone,
  writeZoneFile,
  type KeyOptions,
  type Nsec3Options,
  type Validity,
  type ZoneKey,
} from './zone-signing.js';

/** Each lab zone and what it is built to show. */
export const DNSSEC_CHAIN_ZONES = {
  secure: 'secure.lab', // a valid chain; NXDOMAIN and NODATA proven with NSEC
  nsec3: 'nsec3.lab', // a valid chain; NSEC3 with 0 iterations; delegates island.nsec3.lab unsigned
  nsec3Island: 'island.nsec3.lab', // unsigned below an NSEC3 zone: insecure, proven with NSEC3
  iterations: 'iter.lab', // NSEC3 with 5 iterations: NSEC3_ITERATIONS
  island: 'island.lab', // signed, no DS: insecure, proven with NSEC
  plain: 'plain.lab', // unsigned, no DS: insecure
  digestMismatch: 'digest.lab', // the DS digest does not match the key: DS_DIGEST_MISMATCH
  unpublishedKey: 'nokey.lab', // the DS is of a key the zone does not publish: DS_NO_MATCHING_DNSKEY
  expired: 'expired.lab', // every RRSIG expired 10 days ago: RRSIG_EXPIRED; TLSA records for mail.expired.lab
  notYetValid: 'future.lab', // every RRSIG valid from in 10 days: RRSIG_NOT_YET_VALID
  tampered: 'badsig.lab', // the RRSIG over the DNSKEY set damaged: RRSIG_INVALID
  unsignedKeys: 'nosig.lab', // the RRSIG over the DNSKEY set removed: RRSIG_MISSING
  noDnskey: 'nodnskey.lab', // a DS, but the zone is unsigned: DNSKEY_MISSING
  expiresSoon: 'soon.lab', // every RRSIG expires in 3 days: RRSIG_EXPIRES_SOON
  rsasha1: 'rsasha1.lab', // algorithm 5 with only a SHA-1 DS: ALGORITHM_DEPRECATED, DIGEST_SHA1
  denialMissing: 'gap.lab', // the NSEC records around b.gap.lab removed: DENIAL_MISSING
  denialInvalid: 'badnsec.lab', // the RRSIG over the NSEC covering b.badnsec.lab damaged: DENIAL_INVALID
  unproven: 'unproven.lab', // no DS and the NSEC proving it damaged in lab.: INSECURE_DELEGATION_UNPROVEN
  lame: 'lame.lab', // a DS, but no server answers for the zone: SERVER_FAILURE
  unknownAlgorithm: 'unknownalg.lab', // only a DS of algorithm 253: ALGORITHM_UNSUPPORTED (insecure)
  prohibitedAlgorithm: 'md5.lab', // only a DS of algorithm 1 (RSAMD5): ALGORITHM_PROHIBITED (insecure)
  prohibitedDigest: 'gost.lab', // only a DS of digest type 3 (GOST): DIGEST_PROHIBITED (insecure)
  revoked: 'revoked.lab', // a revoked zone-signing key signs the data: REVOKED_KEY_IN_USE
} as const;

export interface DnssecChainLab {
  /** the validating resolver */
  readonly resolver: HostPort;
  /** the authoritative server of every lab zone */
  readonly authoritative: HostPort;
  /** the lab root's DS: the only trust anchor */
  readonly trustAnchor: string;
  logs(): string;
  close(): Promise<void>;
}

const SOA = '@ IN SOA ns.lab. hostmaster.lab. 1 3600 600 86400 60';

function zoneLines(extra: readonly string[] = []): string[] {
  return [
    SOA,
    '@ IN NS ns.lab.',
    '@ IN A 192.0.2.1',
    'www IN A 192.0.2.2',
    'a IN A 192.0.2.3',
    'm IN A 192.0.2.4',
    // two character-strings: the signature covers where they are split
    'txt IN TXT "v=spf1 include:_spf.example.net" " -all"',
    // a wildcard: a positive answer that needs the proof that the name itself does not exist
    '*.wild IN A 192.0.2.9',
    ...extra,
  ];
}

const DAY = 86400;

export async function startDnssecChainLab(): Promise<DnssecChainLab> {
  const dir = mkdtempSync(join(tmpdir(), 'netdiag-dnssec-chain-'));
  const servers: UnboundServer[] = [];
  const close = async () => {
    await Promise.all(servers.map((s) => s.close()));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const now = Math.floor(Date.now() / 1000);
    // a month, so that only soon.lab reads RRSIG_EXPIRES_SOON (within 7 days)
    const valid: Validity = { inception: now - 3600, expiration: now + 30 * DAY };
    const Z = DNSSEC_CHAIN_ZONES;
    const signed = async (
      zone: string,
      keys: ZoneKey | ZoneKey[],
      validity: Validity = valid,
      nsec3?: Nsec3Options,
      extra?: string[],
    ) => signZone(writeZoneFile(dir, zone, zoneLines(extra)), keys, validity, nsec3);

    const k = await generateKeys(dir, {
      root: ['.'],
      lab: ['lab'],
      secure: [Z.secure],
      nsec3: [Z.nsec3],
      iter: [Z.iterations],
      island: [Z.island],
      digest: [Z.digestMismatch],
      nokey: [Z.unpublishedKey],
      unpublished: [Z.unpublishedKey],
      expired: [Z.expired],
      future: [Z.notYetValid],
      badsig: [Z.tampered],
      nosig: [Z.unsignedKeys],
      soon: [Z.expiresSoon],
      gap: [Z.denialMissing],
      badnsec: [Z.denialInvalid],
      unproven: [Z.unproven],
      lame: [Z.lame],
      unknown: [Z.unknownAlgorithm],
      md5: [Z.prohibitedAlgorithm],
      gost: [Z.prohibitedDigest],
      rsa: [Z.rsasha1, { algorithm: 'RSASHA1' }],
      revokedKsk: [Z.revoked],
      revokedZsk: [Z.revoked, { ksk: false }],
      nodnskey: [Z.noDnskey],
    });
    const { root: rootKey, lab: labKey, secure: secureKey, nsec3: nsec3Key, iter: iterKey, island: islandKey } = k;
    const {
      digest: digestKey,
      nokey: nokeyKey,
      unpublished: unpublishedKey,
      expired: expiredKey,
      future: futureKey,
    } = k;
    const { badsig: badsigKey, nosig: nosigKey, soon: soonKey, gap: gapKey, badnsec: badnsecKey, lame: lameKey } = k;
    const {
      unknown: unknownKey,
      md5: md5Key,
      gost: gostKey,
      rsa: rsaKey,
      revokedKsk,
      revokedZsk,
      nodnskey: nodnskeyKey,
    } = k;
    await revokeKey(revokedZsk);

    const children = await Promise.all([
      signed(Z.secure, secureKey).then((f) => ({ name: Z.secure, zonefile: f })),
      signed(Z.nsec3, nsec3Key, valid, { iterations: 0 }, [`island IN NS ns.lab.`]).then((f) => ({
        name: Z.nsec3,
        zonefile: f,
      })),
      { name: Z.nsec3Island, zonefile: writeZoneFile(dir, Z.nsec3Island, zoneLines()) },
      signed(Z.iterations, iterKey, valid, { iterations: 5, salt: 'aabbccdd' }).then((f) => ({
        name: Z.iterations,
        zonefile: f,
      })),
      signed(Z.island, islandKey).then((f) => ({ name: Z.island, zonefile: f })),
      { name: Z.plain, zonefile: writeZoneFile(dir, Z.plain, zoneLines()) },
      signed(Z.digestMismatch, digestKey).then((f) => ({ name: Z.digestMismatch, zonefile: f })),
      signed(Z.unpublishedKey, nokeyKey).then((f) => ({ name: Z.unpublishedKey, zonefile: f })),
      signed(Z.expired, expiredKey, expiredValidity(10, now), undefined, [
        `*._tcp.mail IN TLSA 3 1 1 ${'AB'.repeat(32)}`,
      ]).then((f) => ({ name: Z.expired, zonefile: f })),
      signed(Z.notYetValid, futureKey, { inception: now + 10 * DAY, expiration: now + 40 * DAY }).then((f) => ({
        name: Z.notYetValid,
        zonefile: f,
      })),
      signed(Z.tampered, badsigKey).then((f) => {
        corruptSignature(f, Z.tampered, 'DNSKEY');
        return { name: Z.tampered, zonefile: f };
      }),
      signed(Z.unsignedKeys, nosigKey).then((f) => {
        removeSignatures(f, Z.unsignedKeys, 'DNSKEY');
        return { name: Z.unsignedKeys, zonefile: f };
      }),
      { name: Z.noDnskey, zonefile: writeZoneFile(dir, Z.noDnskey, zoneLines()) },
      signed(Z.expiresSoon, soonKey, { inception: now - 3600, expiration: now + 3 * DAY }).then((f) => ({
        name: Z.expiresSoon,
        zonefile: f,
      })),
      signed(Z.rsasha1, rsaKey).then((f) => ({ name: Z.rsasha1, zonefile: f })),
      signed(Z.denialMissing, gapKey).then((f) => {
        removeRecords(f, `a.${Z.denialMissing}`, 'NSEC');
        removeRecords(f, Z.denialMissing, 'NSEC');
        return { name: Z.denialMissing, zonefile: f };
      }),
      signed(Z.denialInvalid, badnsecKey).then((f) => {
        corruptSignature(f, `a.${Z.denialInvalid}`, 'NSEC');
        return { name: Z.denialInvalid, zonefile: f };
      }),
      signed(Z.unproven, k.unproven).then((f) => ({ name: Z.unproven, zonefile: f })),
      signed(Z.unknownAlgorithm, unknownKey).then((f) => ({ name: Z.unknownAlgorithm, zonefile: f })),
      signed(Z.prohibitedAlgorithm, md5Key).then((f) => ({ name: Z.prohibitedAlgorithm, zonefile: f })),
      signed(Z.prohibitedDigest, gostKey).then((f) => ({ name: Z.prohibitedDigest, zonefile: f })),
      signed(Z.revoked, [revokedKsk, revokedZsk]).then((f) => ({ name: Z.revoked, zonefile: f })),
    ]);

    const [tag, , , digest] = dsFields(digestKey.ds);
    const wrongDigest = digest.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    const labZone = writeZoneFile(dir, 'lab', [
      SOA,
      '@ IN NS ns.lab.',
      'ns IN A 127.0.0.1',
      ...children.filter((c) => c.name.split('.').length === 2).map((c) => `${c.name}. IN NS ns.lab.`),
      `${Z.lame}. IN NS ns.lab.`,
      secureKey.ds,
      nsec3Key.ds,
      iterKey.ds,
      `${Z.digestMismatch}. IN DS ${tag} 13 2 ${wrongDigest}`,
      unpublishedKey.ds.replace(/^\S+/, `${Z.unpublishedKey}.`),
      expiredKey.ds,
      futureKey.ds,
      badsigKey.ds,
      nosigKey.ds,
      nodnskeyKey.ds,
      soonKey.ds,
      await sha1Ds(rsaKey),
      gapKey.ds,
      badnsecKey.ds,
      lameKey.ds,
      `${Z.unknownAlgorithm}. IN DS 4242 253 2 ${'AB'.repeat(32)}`,
      `${Z.prohibitedAlgorithm}. IN DS 4243 1 2 ${'CD'.repeat(32)}`,
      `${Z.prohibitedDigest}. IN DS ${dsFields(gostKey.ds)[0]} 13 3 ${'EF'.repeat(32)}`,
      revokedKsk.ds,
    ]);
    const labSigned = await signZone(labZone, labKey, valid);
    corruptSignature(labSigned, Z.unproven, 'NSEC');
    const rootZone = writeZoneFile(dir, '.', [
      '@ IN SOA ns.lab. hostmaster.lab. 1 3600 600 86400 60',
      '@ IN NS ns.lab.',
      'lab. IN NS ns.lab.',
      'ns.lab. IN A 127.0.0.1',
      labKey.ds,
    ]);
    const rootSigned = await signZone(rootZone, rootKey, valid);

    const authoritative = await startUnboundAuthoritative(dir, [
      { name: '.', zonefile: rootSigned },
      { name: 'lab', zonefile: labSigned },
      ...children,
    ]);
    servers.push(authoritative);
    const resolver = await startUnboundResolver(dir, {
      trustAnchors: [rootKey.ds],
      stubs: [
        ...['.', 'lab', ...children.map((c) => c.name)].map((name) => ({ name, server: authoritative.address })),
        // nothing listens on the discard port: every question for the zone fails
        { name: Z.lame, server: { host: '127.0.0.1', port: 9 } },
      ],
    });
    servers.push(resolver);
    return {
      resolver: resolver.address,
      authoritative: authoritative.address,
      trustAnchor: rootKey.ds,
      logs: () => servers.map((s) => s.log()).join('\n'),
      close,
    };
  } catch (e) {
    await close();
    throw e;
  }
}

async function generateKeys<K extends string>(
  dir: string,
  specs: Record<K, [string, KeyOptions?]>,
): Promise<Record<K, ZoneKey>> {
  const entries = await Promise.all(
    (Object.entries(specs) as [K, [string, KeyOptions?]][]).map(
      async ([name, [zone, options]]) => [name, await generateKey(dir, zone, options)] as const,
    ),
  );
  return Object.fromEntries(entries) as Record<K, ZoneKey>;
}

/** tag, algorithm, digest type and digest of a DS in presentation format */
function dsFields(ds: string): [string, string, string, string] {
  const fields = ds.split(/\s+/);
  const at = fields.indexOf('DS');
  return [fields[at + 1]!, fields[at + 2]!, fields[at + 3]!, fields.slice(at + 4).join('')];
}
