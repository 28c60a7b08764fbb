/**
 * A ClientHello built by hand, and the first answer to it read by hand: what tls-rating needs for the
 * suites and versions the local TLS library cannot offer (SSLv3, RC4, DES, 3DES, EXPORT, …). The server's
 * choice is in its ServerHello (RFC 5246 §7.4.1.3), so nothing past it is read: no key exchange, no
 * certificate, no Finished. The same parser reads a ClientHello (what this side's library offers, and
 * the lab's fake servers).
 *
 * Formats: the record layer of RFC 5246 §6.2.1 (and RFC 6101 §5.2.1 for SSLv3), the hello messages of
 * RFC 5246 §7.4.1.2–7.4.1.4, the extensions of RFC 6066 §3 (server_name), RFC 8422 §5.1 (supported
 * groups, point formats) and RFC 5746 §3.3 (the renegotiation SCSV).
 */
import { randomBytes } from 'node:crypto';

const CONTENT_HANDSHAKE = 0x16;
const CONTENT_ALERT = 0x15;
const HANDSHAKE_CLIENT_HELLO = 0x01;
const HANDSHAKE_SERVER_HELLO = 0x02;

export const PROTOCOL_CODES = {
  SSLv3: 0x0300,
  TLSv1: 0x0301,
  'TLSv1.1': 0x0302,
  'TLSv1.2': 0x0303,
  'TLSv1.3': 0x0304,
} as const;
export type HelloVersion = keyof typeof PROTOCOL_CODES;

/** RFC 5746 §3.3: TLS_EMPTY_RENEGOTIATION_INFO_SCSV, which servers expect of a secure client. */
const RENEGOTIATION_SCSV = 0x00ff;

/** RFC 8422 §5.1.1 / RFC 7919: x25519, secp256r1, secp384r1, secp521r1, x448, ffdhe2048, ffdhe3072. */
export const DEFAULT_HELLO_GROUPS: readonly number[] = [0x001d, 0x0017, 0x0018, 0x0019, 0x001e, 0x0100, 0x0101];

/**
 * RFC 5246 §7.4.1.4.1 pairs (hash, signature) and RFC 8446 §4.2.3 schemes: SHA-2 and SHA-1 with RSA,
 * ECDSA and DSA, and RSA-PSS, so that a server's certificate of any type can sign its key exchange.
 */
const SIGNATURE_ALGORITHMS: readonly number[] = [
  0x0403, 0x0503, 0x0603, 0x0804, 0x0805, 0x0806, 0x0807, 0x0808, 0x0401, 0x0501, 0x0601, 0x0203, 0x0201, 0x0402,
  0x0202,
];

export interface ClientHelloSpec {
  readonly version: HelloVersion;
  readonly cipherSuites: readonly number[];
  /** SNI (not sent for SSLv3, which has no extensions, nor for an IP literal: RFC 6066 §3) */
  readonly servername: string | null;
  /** supported_groups; default DEFAULT_HELLO_GROUPS */
  readonly groups?: readonly number[];
  /** the 32 bytes of ClientHello.random; default random (tests pass fixed bytes) */
  readonly random?: Uint8Array;
}

function u16(value: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(value);
  return b;
}

function u24(value: number): Buffer {
  return Buffer.from([(value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff]);
}

function list16(items: readonly number[]): Buffer {
  return Buffer.concat([u16(items.length * 2), ...items.map(u16)]);
}

function extension(type: number, body: Buffer): Buffer {
  return Buffer.concat([u16(type), u16(body.length), body]);
}

function extensions(spec: ClientHelloSpec): Buffer {
  const parts: Buffer[] = [];
  if (spec.servername !== null) {
    const name = Buffer.from(spec.servername, 'ascii');
    const entry = Buffer.concat([Buffer.from([0x00]), u16(name.length), name]); // host_name(0)
    parts.push(extension(0x0000, Buffer.concat([u16(entry.length), entry])));
  }
  parts.push(extension(0x000a, list16(spec.groups ?? DEFAULT_HELLO_GROUPS)));
  parts.push(extension(0x000b, Buffer.from([0x01, 0x00]))); // ec_point_formats: uncompressed
  if (spec.version === 'TLSv1.2' || spec.version === 'TLSv1.3')
    parts.push(extension(0x000d, list16(SIGNATURE_ALGORITHMS)));
  if (spec.version === 'TLSv1.3') {
    // RFC 8446 §4.2.1: supported_versions names 1.3; §4.2.8: no key share at all, so that a server
    // that takes one of the groups answers a HelloRetryRequest naming it (§4.1.4) — without any key
    // exchange on either side.
    parts.push(extension(0x002b, Buffer.from([0x02, 0x03, 0x04])));
    parts.push(extension(0x0033, u16(0)));
  }
  const all = Buffer.concat(parts);
  return Buffer.concat([u16(all.length), all]);
}

/** The ClientHello in one handshake record, ready to write to the socket. */
export function buildClientHello(spec: ClientHelloSpec): Buffer {
  const random = spec.random ?? randomBytes(32);
  if (random.length !== 32) throw new RangeError('ClientHello.random is 32 bytes');
  const body = Buffer.concat([
    // RFC 8446 §4.1.2: a TLS 1.3 ClientHello says 1.2 here and 1.3 in supported_versions.
    u16(Math.min(PROTOCOL_CODES[spec.version], PROTOCOL_CODES['TLSv1.2'])),
    Buffer.from(random),
    Buffer.from([0x00]), // no session to resume: a full handshake's choice
    list16([...spec.cipherSuites, RENEGOTIATION_SCSV]),
    Buffer.from([0x01, 0x00]), // compression: null only
    // SSLv3 (RFC 6101) has no extensions; a TLS server reads them (RFC 5246 §7.4.1.4).
    spec.version === 'SSLv3' ? Buffer.alloc(0) : extensions(spec),
  ]);
  const handshake = Buffer.concat([Buffer.from([HANDSHAKE_CLIENT_HELLO]), u24(body.length), body]);
  // RFC 5246 App. E.1: a client offering several versions puts the lowest it takes (TLS 1.0) in the
  // record; servers intolerant of a higher record version exist, none of a lower one.
  const recordVersion = spec.version === 'SSLv3' ? 0x0300 : 0x0301;
  return Buffer.concat([Buffer.from([CONTENT_HANDSHAKE]), u16(recordVersion), u16(handshake.length), handshake]);
}

export type HelloAnswer =
  | {
      readonly kind: 'server-hello';
      readonly version: number;
      readonly cipherSuite: number;
      /** the group of a TLS 1.3 ServerHello's or HelloRetryRequest's key_share (RFC 8446 §4.2.8); else null */
      readonly group: number | null;
    }
  | { readonly kind: 'alert'; readonly level: number; readonly description: number }
  /** the bytes are not TLS records (a plain-text service, an HTTP server) */
  | { readonly kind: 'not-tls' };

export class HelloParseError extends Error {}

/**
 * Reads the first answer out of the bytes received so far: a ServerHello (its handshake message may
 * span records), an alert, or null while more bytes are needed. Throws HelloParseError on bytes that
 * are TLS records but malformed.
 */
export function readServerAnswer(bytes: Buffer): HelloAnswer | null {
  const handshake = handshakeBytes(bytes, HANDSHAKE_SERVER_HELLO);
  if (handshake === null || 'kind' in handshake) return handshake;
  return parseServerHello(handshake.body);
}

/** The body of the first handshake message (whose type must be `expected`), an alert, or null for "more". */
function handshakeBytes(
  bytes: Buffer,
  expected: number,
): { body: Buffer } | Exclude<HelloAnswer, { kind: 'server-hello' }> | null {
  const fragments: Buffer[] = [];
  let offset = 0;
  while (offset + 5 <= bytes.length) {
    const type = bytes[offset]!;
    const major = bytes[offset + 1]!;
    if ((type !== CONTENT_HANDSHAKE && type !== CONTENT_ALERT) || major !== 3) {
      if (offset === 0 && fragments.length === 0) return { kind: 'not-tls' };
      throw new HelloParseError(`unexpected record type ${type} before the hello was complete`);
    }
    const length = bytes.readUInt16BE(offset + 3);
    if (offset + 5 + length > bytes.length) return null;
    const fragment = bytes.subarray(offset + 5, offset + 5 + length);
    offset += 5 + length;
    if (type === CONTENT_ALERT) {
      if (fragment.length < 2) throw new HelloParseError('truncated alert');
      return { kind: 'alert', level: fragment[0]!, description: fragment[1]! };
    }
    fragments.push(fragment);
    const message = Buffer.concat(fragments);
    if (message.length < 4) continue;
    if (message[0] !== expected) throw new HelloParseError(`expected handshake message ${expected}, got ${message[0]}`);
    const bodyLength = (message[1]! << 16) | (message[2]! << 8) | message[3]!;
    if (message.length >= 4 + bodyLength) return { body: message.subarray(4, 4 + bodyLength) };
  }
  return null;
}

class Reader {
  private offset = 0;
  constructor(private readonly bytes: Buffer) {}
  take(length: number): Buffer {
    if (this.offset + length > this.bytes.length) throw new HelloParseError('hello message is truncated');
    const slice = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return slice;
  }
  u8(): number {
    return this.take(1)[0]!;
  }
  u16(): number {
    return this.take(2).readUInt16BE(0);
  }
  get done(): boolean {
    return this.offset >= this.bytes.length;
  }
}

/** RFC 8446 §4.2.1: supported_versions, by which a TLS 1.3 ServerHello names its real version. */
const EXTENSION_SUPPORTED_VERSIONS = 0x002b;
/** RFC 8446 §4.2.8: key_share; a ServerHello's and a HelloRetryRequest's both start with the group. */
const EXTENSION_KEY_SHARE = 0x0033;

function parseServerHello(body: Buffer): HelloAnswer {
  const reader = new Reader(body);
  let version = reader.u16();
  let group: number | null = null;
  reader.take(32); // random (a HelloRetryRequest's is fixed, RFC 8446 §4.1.3: either names the group)
  reader.take(reader.u8()); // session id
  const cipherSuite = reader.u16();
  reader.u8(); // compression method
  if (!reader.done) {
    const extensionsEnd = new Reader(reader.take(reader.u16()));
    while (!extensionsEnd.done) {
      const type = extensionsEnd.u16();
      const data = extensionsEnd.take(extensionsEnd.u16());
      if (type === EXTENSION_SUPPORTED_VERSIONS && data.length === 2) version = data.readUInt16BE(0);
      if (type === EXTENSION_KEY_SHARE && data.length >= 2) group = data.readUInt16BE(0);
    }
  }
  return { kind: 'server-hello', version, cipherSuite, group };
}

export interface ParsedClientHello {
  readonly version: number;
  readonly cipherSuites: number[];
  /** supported_groups; empty without the extension */
  readonly groups: number[];
  readonly servername: string | null;
}

/** A ClientHello record (what a client library writes first), or null while more bytes are needed. */
export function readClientHello(bytes: Buffer): ParsedClientHello | null {
  const handshake = handshakeBytes(bytes, HANDSHAKE_CLIENT_HELLO);
  if (handshake === null) return null;
  if ('kind' in handshake) throw new HelloParseError(`not a ClientHello (${handshake.kind})`);
  const reader = new Reader(handshake.body);
  const version = reader.u16();
  reader.take(32);
  reader.take(reader.u8());
  const suites = new Reader(reader.take(reader.u16()));
  const cipherSuites: number[] = [];
  while (!suites.done) cipherSuites.push(suites.u16());
  reader.take(reader.u8()); // compression methods
  const groups: number[] = [];
  let servername: string | null = null;
  if (!reader.done) {
    const all = new Reader(reader.take(reader.u16()));
    while (!all.done) {
      const type = all.u16();
      const data = new Reader(all.take(all.u16()));
      if (type === 0x000a) {
        const list = new Reader(data.take(data.u16()));
        while (!list.done) groups.push(list.u16());
      } else if (type === 0x0000) {
        const names = new Reader(data.take(data.u16()));
        names.u8();
        servername = names.take(names.u16()).toString('ascii');
      }
    }
  }
  return { version, cipherSuites, groups, servername };
}

/** A ServerHello record naming `cipherSuite` (the lab's fake servers answer with it). */
export function buildServerHello(version: number, cipherSuite: number): Buffer {
  const body = Buffer.concat([
    u16(version),
    Buffer.alloc(32, 0x42),
    Buffer.from([0x00]),
    u16(cipherSuite),
    Buffer.from([0x00]),
  ]);
  const handshake = Buffer.concat([Buffer.from([HANDSHAKE_SERVER_HELLO]), u24(body.length), body]);
  return Buffer.concat([Buffer.from([CONTENT_HANDSHAKE]), u16(version), u16(handshake.length), handshake]);
}

/** An alert record (RFC 5246 §7.2), e.g. handshake_failure (40) or protocol_version (70), level fatal. */
export function buildAlert(version: number, description: number): Buffer {
  return Buffer.concat([Buffer.from([CONTENT_ALERT]), u16(version), u16(2), Buffer.from([0x02, description])]);
}
