/**
 * IP data for ip-info, asn-lookup and what-is-my-ip: AS number, AS name, AS
 * domain, country and continent of a public address.
 *
 * Sources (configuration.md, `ipInfo`):
 * - the database: an operator-supplied IPinfo Lite MMDB when `ipInfo.database` is
 *   set, otherwise the bundled data (ipdata/bundled.ts, a file under `server.dataDir`
 *   read on demand). Opened once per process
 *   and shared by every data source created, on first use or on warm();
 * - live, when `ipInfo.source` is "ipinfo": the IPinfo Lite API
 *   (ipdata/ipinfo-lite.ts). When it fails (time-out, error status, garbage,
 *   connection failure) the answer comes from the database with
 *   `source: "database"` and `liveError` saying why. When the caller's signal
 *   fires, nothing falls back: the lookup ends with ProbeError ABORTED.
 *
 * An address no source has data for (unallocated, unannounced) gives facts whose
 * fields are "" — a result, not an error. Results are plain objects; the caller
 * caches them (decisions §9: 24 h).
 */
import type { Dispatcher } from 'undici';
import { addressWords } from './address-words.js';
import type { IpFacts } from './facts.js';
import { untilAborted } from '../../deadline.js';
import { InputError, UnavailableError } from '../../errors.js';
import { ProbeError } from '../errors.js';
import { openBundledDatabase, type OpenIpDatabase } from './bundled.js';
import { createIpinfoLiteClient } from './ipinfo-lite.js';
import { openOperatorMmdb } from './operator-mmdb.js';

export type { IpFacts } from './facts.js';

export interface IpDataSource {
  /**
   * Facts about `ip`, which the caller guarantees is a public (non-special)
   * address; anything that is not an IP address is an InputError. Throws
   * ProbeError ABORTED when `signal` fires, UnavailableError when the database
   * cannot be opened.
   */
  lookup(ip: string, opts?: { signal?: AbortSignal }): Promise<IpFacts>;
}

export interface WarmableIpDataSource extends IpDataSource {
  /** Opens the database now (start-up, in the background); rejects with the reason it cannot be opened. */
  warm(): Promise<void>;
}

export interface IpDataSourceOptions {
  source: 'embedded' | 'ipinfo';
  /** Path of an IPinfo Lite MMDB replacing the bundled data, or null. */
  database: string | null;
  /** Where the bundled data's file is built and kept (`server.dataDir`; ./bundled.ts). */
  dataDir: string;
  token: string | null;
  baseUrl: string;
  /** Bound on one live request (http.timeoutMs). */
  timeoutMs: number;
  dispatcher?: Dispatcher;
  /** Bound on a live answer's body; default 64 KiB. */
  maxBodyBytes?: number;
}

/** One open (or opening) database per file, for the life of the process. */
const openDatabases = new Map<string, Promise<OpenIpDatabase>>();

function sharedDatabase(path: string | null, dataDir: string): Promise<OpenIpDatabase> {
  const key = path === null ? `bundled:${dataDir}` : `mmdb:${path}`;
  let opening = openDatabases.get(key);
  if (!opening) {
    opening = path === null ? openBundledDatabase(dataDir) : openOperatorMmdb(path);
    openDatabases.set(key, opening);
    const settled = opening;
    // A failed open is not remembered: the next lookup tries again (a file being replaced).
    settled.catch(() => {
      if (openDatabases.get(key) === settled) openDatabases.delete(key);
    });
  }
  return opening;
}

const DATABASE_UPSTREAM = 'ip database';

/** Waits for the database unless the caller's signal fires first; the opening itself goes on. */
async function awaitDatabase(
  path: string | null,
  dataDir: string,
  signal: AbortSignal | undefined,
): Promise<OpenIpDatabase> {
  const aborted = (): ProbeError =>
    new ProbeError('ABORTED', DATABASE_UPSTREAM, 'the request ended before the IP database was ready');
  return untilAborted(
    sharedDatabase(path, dataDir).catch((e: unknown) => {
      throw new UnavailableError('IP data is unavailable: the IP database could not be opened', { cause: e });
    }),
    signal,
    aborted,
  );
}

export function createIpDataSource(options: IpDataSourceOptions): WarmableIpDataSource {
  const fromDatabase = async (ip: string, signal: AbortSignal | undefined): Promise<IpFacts> =>
    (await awaitDatabase(options.database, options.dataDir, signal)).lookup(ip);
  const live =
    options.source === 'ipinfo'
      ? createIpinfoLiteClient({
          baseUrl: options.baseUrl,
          token: options.token,
          timeoutMs: options.timeoutMs,
          ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
          ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
        })
      : null;

  return {
    async lookup(ip, opts) {
      if (!addressWords(ip)) throw new InputError('ip', `not an IP address: ${JSON.stringify(ip.slice(0, 64))}`);
      const signal = opts?.signal;
      if (!live) return fromDatabase(ip, signal);
      try {
        return await live.lookup(ip, signal);
      } catch (e) {
        if (!(e instanceof ProbeError) || e.kind === 'ABORTED') throw e;
        return { ...(await fromDatabase(ip, signal)), liveError: e.message };
      }
    },
    async warm() {
      await sharedDatabase(options.database, options.dataDir);
    },
  };
}
