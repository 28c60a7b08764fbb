/**
 * The caller's public address for my-ip / what-is-my-ip (api-v1.md rule 1, decisions §5).
 * The peer address of the connection, unless the peer is one of our own front-end proxies
 * (`server.trustedProxies`): then the address those proxies appended to X-Forwarded-For, read from the
 * right and skipping further trusted proxies (a chain of our own proxies). Every other forwarding header
 * (Forwarded, X-Real-IP, CF-Connecting-IP, ...) is ignored: a client could set them.
 */
import { InputError, withArticle } from '../errors.js';
import { classifyAddress, isInCidrs, normaliseIp } from '../net/address-class.js';
import ipaddr from 'ipaddr.js';
import { LRUCache } from 'lru-cache';

export interface ClientAddress {
  readonly ip: string;
  readonly version: 'IPv4' | 'IPv6';
}

export function clientAddress(
  peer: string | null,
  forwardedFor: string | null,
  trustedProxies: readonly string[],
): ClientAddress {
  const { client, notPublic } = resolved(peer, forwardedFor, trustedProxies);
  if (notPublic) throw new InputError('address', notPublic);
  return client;
}

/**
 * The same address without the "must be public" rule: whoever is at the other end, for uses that are
 * not a report of the public address (the developer page's per-address issuance limit, where a
 * self-hosted instance on a private network must still serve its own users).
 */
export function connectionClientAddress(
  peer: string | null,
  forwardedFor: string | null,
  trustedProxies: readonly string[],
): ClientAddress {
  return resolved(peer, forwardedFor, trustedProxies).client;
}

/** The client address, and why it is not a public one (the message of my-ip's 400), or null. */
interface Resolved {
  readonly client: ClientAddress;
  readonly notPublic: string | null;
}

/**
 * Answers already worked out, by peer and X-Forwarded-For, for each trustedProxies list (the
 * configuration's, one array for the life of the process). Working one out parses the same text several
 * times over (validity, the trusted ranges, canonical form, the address's class): a sizeable part of the
 * my-ip path's cost (bench/my-ip.ts; docs/performance.md "Measured reasons behind design choices"), and a client sends
 * the same two values request after request. Malformed input throws and is not kept. Bounded in bytes:
 * MEMO_ENTRIES answers, and none for an X-Forwarded-For longer than MEMO_MAX_FORWARDED characters (a long
 * chain is rare, and computed each time), so the memo holds well under 1 MB.
 */
const MEMO_ENTRIES = 1024;
const MEMO_MAX_FORWARDED = 256;
const memos = new WeakMap<readonly string[], LRUCache<string, Resolved>>();

function resolved(peer: string | null, forwardedFor: string | null, trustedProxies: readonly string[]): Resolved {
  if (forwardedFor !== null && forwardedFor.length > MEMO_MAX_FORWARDED)
    return worked(peer, forwardedFor, trustedProxies);
  let memo = memos.get(trustedProxies);
  if (!memo) memos.set(trustedProxies, (memo = new LRUCache<string, Resolved>({ max: MEMO_ENTRIES })));
  // A newline cannot occur in a header value or an address: the two parts stay apart.
  const key = `${peer ?? ''}\n${forwardedFor ?? ''}`;
  let answer = memo.get(key);
  if (!answer) memo.set(key, (answer = worked(peer, forwardedFor, trustedProxies)));
  return answer;
}

function worked(peer: string | null, forwardedFor: string | null, trustedProxies: readonly string[]): Resolved {
  const client = parsedClientAddress(peer, forwardedFor, trustedProxies);
  const cls = classifyAddress(client.ip);
  // The usual first contact is a local curl, or a service behind a reverse proxy that was not declared:
  // say what would make the answer public instead of only what is wrong.
  const notPublic = cls.special
    ? `the client address ${client.ip} is ${withArticle(cls.range)} address, not a public one: my-ip reports the public address a request comes from, so call it from the internet, or list your reverse proxy in server.trustedProxies so that its X-Forwarded-For is used`
    : null;
  return { client, notPublic };
}

function parsedClientAddress(
  peer: string | null,
  forwardedFor: string | null,
  trustedProxies: readonly string[],
): ClientAddress {
  let candidate = peer;
  if (
    peer &&
    ipaddr.isValid(peer) &&
    trustedProxies.length > 0 &&
    isInCidrs(peer, trustedProxies) &&
    forwardedFor !== null
  ) {
    const hops = forwardedFor
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean);
    candidate = null;
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = stripPort(hops[i]!);
      candidate = hop;
      if (!(ipaddr.isValid(hop) && isInCidrs(hop, trustedProxies))) break;
    }
  }
  if (!candidate) throw new InputError('address', 'the connection has no client address to report');
  if (!ipaddr.isValid(candidate))
    throw new InputError('address', `the client address "${candidate.slice(0, 64)}" is malformed`);
  const { ip, family } = normaliseIp(candidate);
  return { ip, version: family === 4 ? 'IPv4' : 'IPv6' };
}

/** "1.2.3.4:5678" and "[2001:db8::1]:443" as some proxies write them. */
function stripPort(hop: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(hop);
  if (bracketed) return bracketed[1]!;
  const v4port = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(hop);
  return v4port ? v4port[1]! : hop;
}

/**
 * The ledger entry a client counts against (key issuance, the unkeyed budget): the IPv4 address, or the
 * IPv6 /64 — one end site's subnet (RFC 4291 §2.5.4, RFC 6177), whose 2^64 addresses one client may all use.
 */
export function clientBucket(client: ClientAddress): { key: string; label: string } {
  if (client.version === 'IPv4') return { key: client.ip, label: `the address ${client.ip}` };
  const parts = ipaddr.IPv6.parse(client.ip).parts;
  const prefix = `${new ipaddr.IPv6([...parts.slice(0, 4), 0, 0, 0, 0]).toString()}/64`;
  return { key: prefix, label: `the network ${prefix}` };
}
