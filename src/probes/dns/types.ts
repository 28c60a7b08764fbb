/**
 * The shapes of the DNS probe (decisions §8). Record data is plain JSON (binary fields as base64 or
 * hex strings, never Buffers) so that an answer can be kept in the shared cache (decisions §9) as is.
 */
import type { HostPort } from '../../config.js';

/** The record types a check may ask for. */
export type RecordType =
  | 'A'
  | 'AAAA'
  | 'MX'
  | 'TXT'
  | 'CNAME'
  | 'NS'
  | 'SOA'
  | 'PTR'
  | 'DS'
  | 'DNSKEY'
  | 'RRSIG'
  | 'CAA'
  | 'SRV'
  | 'TLSA';

/**
 * A server to ask. `label` names it in error messages in place of its address: the deployment's own
 * resolver is "the service's resolver" to a client, since its address is inside the operator's network.
 */
export interface DnsServer extends HostPort {
  readonly label?: string;
}

export interface DnsQuery {
  /** ASCII (A-label) name; a trailing dot is optional; "." is the root. */
  readonly name: string;
  readonly type: RecordType;
  readonly server: DnsServer;
  /** Set DO (RFC 3225). EDNS0 is always sent, advertising a UDP payload of 1232 bytes. */
  readonly dnssecOk?: boolean;
  /** Set CD (RFC 4035 §3.2.2): ask a validating resolver not to validate. */
  readonly checkingDisabled?: boolean;
  /** Default true; false when asking an authoritative server directly. */
  readonly recursionDesired?: boolean;
}

export interface MxData {
  readonly preference: number;
  readonly exchange: string;
}

/** RFC 1035 §3.3.13. */
export interface SoaData {
  readonly mname: string;
  readonly rname: string;
  readonly serial: number;
  readonly refresh: number;
  readonly retry: number;
  readonly expire: number;
  readonly minimum: number;
}

/** RFC 4034 §2. `keyTag` is computed from the RDATA (RFC 4034 Appendix B). */
export interface DnskeyData {
  readonly flags: number;
  readonly protocol: number;
  readonly algorithm: number;
  /** base64, as in presentation format */
  readonly publicKey: string;
  readonly keyTag: number;
  /** flags bit 7 (ZONE) */
  readonly zoneKey: boolean;
  /** flags bit 15 (SEP): conventionally a key-signing key */
  readonly secureEntryPoint: boolean;
}

/** RFC 4034 §5. */
export interface DsData {
  readonly keyTag: number;
  readonly algorithm: number;
  readonly digestType: number;
  /** upper-case hex, as in presentation format */
  readonly digest: string;
}

/** RFC 4034 §3. Times are seconds since the epoch (serial arithmetic, RFC 4034 §3.1.5). */
export interface RrsigData {
  readonly typeCovered: string;
  readonly algorithm: number;
  readonly labels: number;
  readonly originalTtl: number;
  readonly expiration: number;
  readonly inception: number;
  readonly keyTag: number;
  readonly signerName: string;
  /** base64 */
  readonly signature: string;
}

/** RFC 8659 §4. */
export interface CaaData {
  readonly flags: number;
  /** the issuer-critical flag (bit 0 of the flags octet) */
  readonly critical: boolean;
  readonly tag: string;
  readonly value: string;
}

/** RFC 2782. */
export interface SrvData {
  readonly priority: number;
  readonly weight: number;
  readonly port: number;
  readonly target: string;
}

/** RFC 6698 §2.1: a certificate association for DANE. */
export interface TlsaData {
  /** 0 PKIX-TA, 1 PKIX-EE, 2 DANE-TA, 3 DANE-EE (RFC 7218) */
  readonly usage: number;
  /** 0 the full certificate, 1 its SubjectPublicKeyInfo */
  readonly selector: number;
  /** 0 exact, 1 SHA-256, 2 SHA-512 */
  readonly matchingType: number;
  /** the certificate association data, lower-case hex */
  readonly data: string;
}

/** RFC 4034 §4: seen in the authority section of signed negative answers. */
export interface NsecData {
  readonly nextDomain: string;
  readonly types: readonly string[];
}

/** RFC 5155 §3. */
export interface Nsec3Data {
  readonly hashAlgorithm: number;
  readonly flags: number;
  readonly iterations: number;
  /** hex, empty for no salt */
  readonly salt: string;
  /** base32hex without padding, as in presentation format (RFC 5155 §3.3) */
  readonly nextHashedOwner: string;
  readonly types: readonly string[];
}

/** Any other type: its RDATA in the generic form of RFC 3597 §5, as lower-case hex. */
export interface OpaqueData {
  readonly rdataHex: string;
}

/**
 * A/AAAA/CNAME/NS/PTR: string; TXT: string (the character-strings of ONE record joined with ''
 * per RFC 7208 §3.3, decoded as UTF-8); the rest as their interfaces above.
 */
export type DnsData =
  | string
  | MxData
  | SoaData
  | DnskeyData
  | DsData
  | RrsigData
  | CaaData
  | SrvData
  | TlsaData
  | NsecData
  | Nsec3Data
  | OpaqueData;

export interface DnsRecord {
  /** owner name as the server wrote it, without the trailing dot ("." for the root) */
  readonly name: string;
  readonly type: string;
  readonly ttl: number;
  readonly data: DnsData;
  /**
   * TXT only: each character-string of the record, base64, in order (RFC 1035 §3.3.14). `data` joins
   * them, which loses where they were split; a DNSSEC signature covers the split (RFC 4034 §6.2).
   */
  readonly characterStrings?: readonly string[];
}

export interface DnsResponse {
  /** Only results; every other rcode throws a ProbeError. */
  readonly rcode: 'NOERROR' | 'NXDOMAIN';
  readonly authoritative: boolean;
  readonly authenticData: boolean;
  readonly recursionAvailable: boolean;
  /** Always false: a truncated UDP answer is asked again over TCP. */
  readonly truncated: boolean;
  readonly answers: readonly DnsRecord[];
  readonly authority: readonly DnsRecord[];
  /** "host:port" the answer came from ("[v6]:port" for IPv6) */
  readonly server: string;
  /** from the start of the question (server-name lookup included) to the answer, in milliseconds (fractional) */
  readonly elapsedMs: number;
  readonly transport: 'udp' | 'tcp';
}

export interface DnsQueryOptions {
  readonly signal?: AbortSignal;
  /** The whole question, retries included; default: the client's timeoutMs. */
  readonly timeoutMs?: number;
}

export interface DnsClient {
  query(q: DnsQuery, opts?: DnsQueryOptions): Promise<DnsResponse>;
}
