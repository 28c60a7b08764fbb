/**
 * An in-process DNS server for tests: UDP and TCP on one loopback port, answering every name from a
 * mutable list of records, so that one lab can play every authoritative server and resolver a test
 * needs. Behaviours (delay, drop, truncation, error rcodes, garbage, wrong ID, hang-up) are set per
 * name, optionally per type and per transport, and every question it sees is logged.
 *
 *   const lab = await startDnsLab({ records: [rr.a('example.test', '192.0.2.1'), rr.mx('example.test', 10, 'mx.example.test')] });
 *   lab.setBehaviour('slow.example.test', { delayMs: 50 });
 *   ... query lab.address ...
 *   await lab.close();
 *
 * Answering rules (a resolver's view of one big zone):
 * - records of the asked type at the name (case-insensitive) → NOERROR with them;
 * - else a CNAME at the name → the CNAME, then the same rules at its target (up to 8 hops; RFC 6604:
 *   the rcode is the last name's);
 * - else NXDOMAIN when no record is at or below the name, NODATA (NOERROR, no answers) when some
 *   record is (an empty non-terminal, RFC 8020); both with the closest enclosing SOA of the list in
 *   the authority section, or DEFAULT_LAB_SOA;
 * - with DO set, RRSIGs at an answer's owner whose typeCovered is the answer's type are added
 *   (RFC 4035 §3.1.1); an RRSIG query returns the RRSIGs themselves. No NSEC/NSEC3 is synthesised.
 * - over UDP, an answer larger than the client's EDNS payload (512 without EDNS, at most 1232) goes
 *   out empty with TC set (RFC 6891 §7), as from a real server; over TCP it goes out whole.
 */
import dgram from 'node:dgram';
import net from 'node:net';
import dnsPacket from 'dns-packet';
import type { Answer, DecodedPacket, Packet } from 'dns-packet';
import type { HostPort } from '../../src/config.js';

/** A record in dns-packet's shapes (`data` as dns-packet encodes it, binary fields as Buffers). */
export interface LabZoneRecord {
  name: string;
  type: string;
  /** default 300 */
  ttl?: number;
  data: unknown;
}

export interface LabBehaviour {
  /** wait this long before answering (per answer; other questions are not held up) */
  delayMs?: number;
  /** never answer */
  drop?: boolean;
  /** over UDP answer empty with TC set; over TCP answer in full */
  truncate?: boolean;
  /** servfail, refused and rcode are one choice: among matching rules, the last one to set any wins */
  servfail?: boolean;
  refused?: boolean;
  /** any rcode number (1 FORMERR, 4 NOTIMP, …) */
  rcode?: number;
  /** answer with a few bytes that are not a DNS message */
  garbage?: boolean;
  /** answer with an ID other than the query's */
  wrongId?: boolean;
  /** leave the question section out of the answer (as some servers do with an error rcode) */
  omitQuestion?: boolean;
  /** over UDP, first a packet with another ID and an undecodable packet, then the real answer */
  decoyFirst?: boolean;
  /** over TCP, close the connection without answering (over UDP: no answer) */
  hangUp?: boolean;
  /** apply this rule only to questions that came over this transport */
  transport?: 'udp' | 'tcp';
}

export interface LabQuery {
  /** the message ID: a client's resend of an unanswered question carries the same one */
  id: number;
  /** lower case, no trailing dot ("" for the root) */
  name: string;
  type: string;
  transport: 'udp' | 'tcp';
  do: boolean;
  cd: boolean;
  rd: boolean;
}

export interface LabFlags {
  aa: boolean;
  ad: boolean;
  ra: boolean;
}

export interface DnsLab {
  readonly host: '127.0.0.1' | '::1';
  readonly port: number;
  readonly address: HostPort;
  /** mutable: the answers follow it */
  records: LabZoneRecord[];
  /** header flags of every answer; mutable (e.g. `lab.flags.ad = true` to play a validating resolver) */
  flags: LabFlags;
  /** every question seen, in order */
  readonly queries: LabQuery[];
  /** records the lab failed to encode (a test's mistake); such questions get SERVFAIL */
  readonly errors: Error[];
  /**
   * Behaviour for names equal to `name` (case-insensitive), matching the RegExp (tested against the
   * lower-case name without trailing dot), or every name ('*'); optionally only for one type. When
   * several rules match, their fields merge, later rules winning.
   */
  setBehaviour(name: string | RegExp, behaviour: LabBehaviour, type?: string): void;
  clearBehaviours(): void;
  countQueries(name?: string, type?: string, transport?: 'udp' | 'tcp'): number;
  /**
   * Distinct questions asked (by message ID, name and type): a resend of a question the client thought
   * lost (a busy machine answered it late) is the same question, which countQueries counts twice.
   */
  countQuestions(name?: string, type?: string): number;
  /** forget the questions seen so far (for a lab shared by several tests) */
  clearQueries(): void;
  close(): Promise<void>;
}

export interface DnsLabOptions {
  records?: LabZoneRecord[];
  /** delay of every answer (a behaviour's delayMs overrides it) */
  delayMs?: number;
  /** default true: AA set, RA clear; false plays a resolver: AA clear, RA set */
  authoritative?: boolean;
  /** default 127.0.0.1 */
  host?: '127.0.0.1' | '::1';
}

export const DEFAULT_LAB_SOA: LabZoneRecord = {
  name: '.',
  type: 'SOA',
  ttl: 300,
  data: {
    mname: 'ns.lab.test',
    rname: 'hostmaster.lab.test',
    serial: 1,
    refresh: 3600,
    retry: 600,
    expire: 86400,
    minimum: 60,
  },
};

const MAX_CNAME_HOPS = 8;
const UDP_CAP = 1232;
const CLASSIC_UDP = 512;
const RCODE_SERVFAIL = 2;
const RCODE_NXDOMAIN = 3;
const RCODE_REFUSED = 5;
const PORT_ATTEMPTS = 20;

interface Rule {
  match: string | RegExp;
  type: string | undefined;
  behaviour: LabBehaviour;
}

type DecodedQuery = DecodedPacket & { opcode?: string };

function canonical(name: string): string {
  const lower = name.toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

function isAtOrBelow(name: string, ancestor: string): boolean {
  return ancestor === '' || name === ancestor || name.endsWith(`.${ancestor}`);
}

export async function startDnsLab(options: DnsLabOptions = {}): Promise<DnsLab> {
  const host = options.host ?? '127.0.0.1';
  const authoritative = options.authoritative ?? true;
  const rules: Rule[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const tcpSockets = new Set<net.Socket>();
  let closed = false;

  const { udp, tcp } = await bindSamePort(host);
  const port = (udp.address() as { port: number }).port;

  const lab: DnsLab = {
    host,
    port,
    address: { host, port },
    records: [...(options.records ?? [])],
    flags: { aa: authoritative, ad: false, ra: !authoritative },
    queries: [],
    errors: [],
    setBehaviour(name, behaviour, type) {
      rules.push({
        match: typeof name === 'string' && name !== '*' ? canonical(name) : name,
        type: type?.toUpperCase(),
        behaviour,
      });
    },
    clearBehaviours() {
      rules.length = 0;
    },
    countQueries(name, type, transport) {
      const n = name === undefined ? undefined : canonical(name);
      return lab.queries.filter(
        (q) =>
          (n === undefined || q.name === n) &&
          (type === undefined || q.type === type.toUpperCase()) &&
          (transport === undefined || q.transport === transport),
      ).length;
    },
    countQuestions(name, type) {
      const n = name === undefined ? undefined : canonical(name);
      const asked = lab.queries.filter(
        (q) => (n === undefined || q.name === n) && (type === undefined || q.type === type.toUpperCase()),
      );
      return new Set(asked.map((q) => `${q.id} ${q.name} ${q.type}`)).size;
    },
    clearQueries() {
      lab.queries.length = 0;
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const s of tcpSockets) s.destroy();
      await Promise.all([
        new Promise<void>((resolve) => udp.close(() => resolve())),
        new Promise<void>((resolve) => tcp.close(() => resolve())),
      ]);
    },
  };

  /** The matching rules merged in order; servfail/refused/rcode are one field (the last one set wins). */
  function behaviourFor(name: string, type: string, transport: 'udp' | 'tcp'): LabBehaviour {
    const merged: LabBehaviour = {};
    let rcode: number | undefined;
    for (const rule of rules) {
      if (rule.type !== undefined && rule.type !== type) continue;
      if (rule.behaviour.transport !== undefined && rule.behaviour.transport !== transport) continue;
      const m = rule.match;
      const hit = m === '*' || (typeof m === 'string' ? m === name : m.test(name));
      if (!hit) continue;
      const { servfail, refused, rcode: ruleRcode, ...rest } = rule.behaviour;
      Object.assign(merged, rest);
      if (servfail) rcode = RCODE_SERVFAIL;
      if (refused) rcode = RCODE_REFUSED;
      if (ruleRcode !== undefined) rcode = ruleRcode;
    }
    return rcode === undefined ? merged : { ...merged, rcode };
  }

  function later(ms: number, run: () => void): void {
    const t = setTimeout(() => {
      timers.delete(t);
      if (!closed) run();
    }, ms);
    timers.add(t);
  }

  /** Decodes one query, logs it and sends what the behaviours say (possibly nothing). */
  function handle(bytes: Buffer, transport: 'udp' | 'tcp', send: (message: Buffer) => void, hangUp: () => void): void {
    let query: DecodedQuery;
    try {
      query = dnsPacket.decode(bytes);
    } catch {
      return; // not a DNS message: nothing sensible to answer
    }
    const question = query.questions?.[0];
    if (query.flag_qr || question === undefined) return;
    const opt = (query.additionals ?? []).find((a) => a.type === 'OPT');
    const dnssecOk = opt !== undefined && 'flag_do' in opt && opt.flag_do;
    const name = canonical(question.name);
    lab.queries.push({
      id: query.id ?? 0,
      name,
      type: question.type,
      transport,
      do: dnssecOk,
      cd: query.flag_cd,
      rd: query.flag_rd,
    });

    const behaviour = behaviourFor(name, question.type, transport);
    if (behaviour.drop) return;
    const respond = (): void => {
      if (behaviour.hangUp) {
        hangUp();
        return;
      }
      if (behaviour.garbage) {
        send(Buffer.from([0xde, 0xad, 0xbe, 0xef, 0x00, 0x01, 0x02]));
        return;
      }
      if (behaviour.decoyFirst && transport === 'udp') {
        send(answerFor(query, name, { ...behaviour, wrongId: true }, transport, dnssecOk));
        send(Buffer.from('not a dns message'));
      }
      send(answerFor(query, name, behaviour, transport, dnssecOk));
    };
    const delay = behaviour.delayMs ?? options.delayMs ?? 0;
    if (delay > 0) later(delay, respond);
    else respond();
  }

  function answerFor(
    query: DecodedQuery,
    name: string,
    behaviour: LabBehaviour,
    transport: 'udp' | 'tcp',
    dnssecOk: boolean,
  ): Buffer {
    const question = query.questions![0]!;
    const opt = (query.additionals ?? []).find((a) => a.type === 'OPT');
    const flags =
      (lab.flags.aa ? dnsPacket.AUTHORITATIVE_ANSWER : 0) |
      (lab.flags.ra ? dnsPacket.RECURSION_AVAILABLE : 0) |
      (lab.flags.ad ? dnsPacket.AUTHENTIC_DATA : 0) |
      (query.flag_cd ? dnsPacket.CHECKING_DISABLED : 0) |
      (query.flag_rd ? dnsPacket.RECURSION_DESIRED : 0);
    const content =
      behaviour.rcode === undefined
        ? resolveInZone(lab.records, name, question.type, dnssecOk)
        : { rcode: behaviour.rcode, answers: [], authorities: [] };
    const packet: Packet = {
      type: 'response',
      id: behaviour.wrongId ? (query.id! + 1 + Math.floor(Math.random() * 0xfffe)) % 0x10000 : query.id!,
      flags: flags | content.rcode,
      questions: behaviour.omitQuestion ? [] : [question],
      answers: content.answers,
      authorities: content.authorities,
      // RFC 3225 §3: DO is copied into the answer's OPT
      additionals:
        opt === undefined
          ? []
          : [
              {
                type: 'OPT',
                name: '.',
                udpPayloadSize: UDP_CAP,
                extendedRcode: 0,
                ednsVersion: 0,
                flags: dnssecOk ? dnsPacket.DNSSEC_OK : 0,
                flag_do: dnssecOk,
                options: [],
              },
            ],
    };
    let encoded: Buffer;
    try {
      encoded = dnsPacket.encode(packet);
    } catch (e) {
      lab.errors.push(
        new Error(`dns lab: cannot encode the answer to ${question.type} ${name}: ${(e as Error).message}`),
      );
      encoded = dnsPacket.encode({ ...packet, flags: flags | RCODE_SERVFAIL, answers: [], authorities: [] });
    }
    if (transport === 'udp') {
      const clientLimit =
        opt !== undefined && 'udpPayloadSize' in opt ? Math.max(CLASSIC_UDP, opt.udpPayloadSize) : CLASSIC_UDP;
      if (behaviour.truncate || encoded.length > Math.min(clientLimit, UDP_CAP)) {
        encoded = dnsPacket.encode({
          ...packet,
          flags: flags | content.rcode | dnsPacket.TRUNCATED_RESPONSE,
          answers: [],
          authorities: [],
        });
      }
    }
    return encoded;
  }

  udp.on('message', (bytes, remote) => {
    handle(
      bytes,
      'udp',
      (message) => {
        if (!closed) udp.send(message, remote.port, remote.address);
      },
      () => {},
    );
  });

  tcp.on('connection', (socket) => {
    tcpSockets.add(socket);
    socket.on('close', () => tcpSockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let buffered = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      // a frame is at most 2 + 65,535 bytes, so this buffer stays bounded
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 2 && buffered.length >= 2 + buffered.readUInt16BE(0)) {
        const length = buffered.readUInt16BE(0);
        const message = buffered.subarray(2, 2 + length);
        buffered = buffered.subarray(2 + length);
        handle(
          message,
          'tcp',
          (answer) => {
            if (!socket.destroyed) socket.write(frame(answer));
          },
          () => socket.destroy(),
        );
      }
    });
  });

  return lab;
}

function frame(message: Buffer): Buffer {
  const prefix = Buffer.alloc(2);
  prefix.writeUInt16BE(message.length);
  return Buffer.concat([prefix, message]);
}

interface ZoneAnswer {
  rcode: number;
  answers: Answer[];
  authorities: Answer[];
}

function resolveInZone(records: readonly LabZoneRecord[], qname: string, qtype: string, dnssecOk: boolean): ZoneAnswer {
  const answers: Answer[] = [];
  const signatures = (owner: string, covered: string): LabZoneRecord[] =>
    dnssecOk
      ? records.filter(
          (r) =>
            r.type === 'RRSIG' &&
            canonical(r.name) === owner &&
            (r.data as { typeCovered?: string }).typeCovered === covered,
        )
      : [];
  let owner = qname;
  for (let hop = 0; hop <= MAX_CNAME_HOPS; hop++) {
    const atOwner = records.filter((r) => canonical(r.name) === owner);
    const ofType = atOwner.filter((r) => r.type === qtype);
    if (ofType.length > 0) {
      answers.push(...[...ofType, ...signatures(owner, qtype)].map(toAnswer));
      return { rcode: 0, answers, authorities: [] };
    }
    const alias = atOwner.find((r) => r.type === 'CNAME');
    if (alias === undefined || qtype === 'CNAME') {
      const exists = records.some((r) => isAtOrBelow(canonical(r.name), owner));
      const soa = closestSoa(records, owner);
      return {
        rcode: exists ? 0 : RCODE_NXDOMAIN,
        answers,
        authorities: [soa, ...signatures(canonical(soa.name), 'SOA')].map(toAnswer),
      };
    }
    answers.push(...[alias, ...signatures(owner, 'CNAME')].map(toAnswer));
    owner = canonical(String(alias.data));
  }
  // a CNAME loop or an over-long chain: what a resolver gives up with
  return { rcode: RCODE_SERVFAIL, answers: [], authorities: [] };
}

function closestSoa(records: readonly LabZoneRecord[], name: string): LabZoneRecord {
  let best: LabZoneRecord | undefined;
  for (const r of records) {
    if (r.type !== 'SOA' || !isAtOrBelow(name, canonical(r.name))) continue;
    if (best === undefined || canonical(r.name).length > canonical(best.name).length) best = r;
  }
  return best ?? DEFAULT_LAB_SOA;
}

/**
 * A fresh copy in dns-packet's shape: its encoder writes into TXT arrays and CAA objects, and
 * writes a TXT string longer than 255 bytes with a wrong length octet, so TXT strings are split
 * into 255-byte character-strings here (RFC 7208 §3.3).
 */
function toAnswer(r: LabZoneRecord): Answer {
  let data = r.data;
  if (r.type === 'TXT') data = splitCharacterStrings(data);
  else if (Array.isArray(data)) data = [...data];
  else if (data !== null && typeof data === 'object' && !Buffer.isBuffer(data)) data = { ...data };
  return { name: r.name, type: r.type, ttl: r.ttl ?? 300, class: 'IN', data } as Answer;
}

function splitCharacterStrings(data: unknown): Buffer[] {
  const parts = Array.isArray(data) ? data : [data];
  const out: Buffer[] = [];
  for (const part of parts) {
    const bytes = Buffer.isBuffer(part) ? part : Buffer.from(String(part));
    if (bytes.length === 0) out.push(bytes);
    for (let i = 0; i < bytes.length; i += 255) out.push(bytes.subarray(i, i + 255));
  }
  return out;
}

/** UDP on port 0, then TCP on the port UDP got; another process may hold that TCP port, so retry. */
async function bindSamePort(host: string): Promise<{ udp: dgram.Socket; tcp: net.Server }> {
  let lastError: unknown;
  for (let attempt = 0; attempt < PORT_ATTEMPTS; attempt++) {
    const udp = dgram.createSocket(host.includes(':') ? 'udp6' : 'udp4');
    await new Promise<void>((resolve, reject) => {
      udp.once('error', reject);
      udp.bind(0, host, () => {
        udp.off('error', reject);
        resolve();
      });
    });
    const port = (udp.address() as { port: number }).port;
    const tcp = net.createServer();
    try {
      await new Promise<void>((resolve, reject) => {
        tcp.once('error', reject);
        tcp.listen(port, host, () => {
          tcp.off('error', reject);
          resolve();
        });
      });
      return { udp, tcp };
    } catch (e) {
      lastError = e;
      await new Promise<void>((resolve) => udp.close(() => resolve()));
    }
  }
  throw new Error(`dns lab: no port free for both UDP and TCP on ${host} after ${PORT_ATTEMPTS} attempts`, {
    cause: lastError,
  });
}

/** Terse record builders in dns-packet's shapes. Binary fields are given as base64 or hex strings. */
export const rr = {
  a: (name: string, address: string, ttl?: number): LabZoneRecord => ({ name, type: 'A', ttl, data: address }),
  aaaa: (name: string, address: string, ttl?: number): LabZoneRecord => ({ name, type: 'AAAA', ttl, data: address }),
  cname: (name: string, target: string, ttl?: number): LabZoneRecord => ({ name, type: 'CNAME', ttl, data: target }),
  ns: (name: string, host: string, ttl?: number): LabZoneRecord => ({ name, type: 'NS', ttl, data: host }),
  ptr: (name: string, target: string, ttl?: number): LabZoneRecord => ({ name, type: 'PTR', ttl, data: target }),
  mx: (name: string, preference: number, exchange: string, ttl?: number): LabZoneRecord => ({
    name,
    type: 'MX',
    ttl,
    data: { preference, exchange },
  }),
  /** one TXT record; a string longer than 255 bytes is split into several character-strings */
  txt: (name: string, text: string | Buffer | (string | Buffer)[], ttl?: number): LabZoneRecord => ({
    name,
    type: 'TXT',
    ttl,
    data: text,
  }),
  soa: (
    name: string,
    fields: Partial<{
      mname: string;
      rname: string;
      serial: number;
      refresh: number;
      retry: number;
      expire: number;
      minimum: number;
    }> = {},
    ttl?: number,
  ): LabZoneRecord => ({
    name,
    type: 'SOA',
    ttl,
    data: {
      ...(DEFAULT_LAB_SOA.data as object),
      mname: `ns1.${canonical(name)}`,
      rname: `hostmaster.${canonical(name)}`,
      ...fields,
    },
  }),
  srv: (name: string, priority: number, weight: number, port: number, target: string, ttl?: number): LabZoneRecord => ({
    name,
    type: 'SRV',
    ttl,
    data: { priority, weight, port, target },
  }),
  caa: (name: string, tag: string, value: string, flags = 0, ttl?: number): LabZoneRecord => ({
    name,
    type: 'CAA',
    ttl,
    data: { flags, tag, value },
  }),
  /** RFC 6698 §2.1; `dataHex` the certificate association data */
  tlsa: (
    name: string,
    usage: number,
    selector: number,
    matchingType: number,
    dataHex: string,
    ttl?: number,
  ): LabZoneRecord => ({
    name,
    type: 'TLSA',
    ttl,
    data: { usage, selector, matchingType, certificate: Buffer.from(dataHex, 'hex') },
  }),
  ds: (
    name: string,
    keyTag: number,
    algorithm: number,
    digestType: number,
    digestHex: string,
    ttl?: number,
  ): LabZoneRecord => ({
    name,
    type: 'DS',
    ttl,
    data: { keyTag, algorithm, digestType, digest: Buffer.from(digestHex, 'hex') },
  }),
  dnskey: (name: string, flags: number, algorithm: number, publicKeyBase64: string, ttl?: number): LabZoneRecord => ({
    name,
    type: 'DNSKEY',
    ttl,
    data: { flags, algorithm, key: Buffer.from(publicKeyBase64, 'base64') },
  }),
  rrsig: (
    name: string,
    fields: {
      typeCovered: string;
      algorithm: number;
      labels: number;
      originalTtl: number;
      expiration: number;
      inception: number;
      keyTag: number;
      signerName: string;
      signatureBase64: string;
    },
    ttl?: number,
  ): LabZoneRecord => ({
    name,
    type: 'RRSIG',
    ttl,
    data: {
      typeCovered: fields.typeCovered,
      algorithm: fields.algorithm,
      labels: fields.labels,
      originalTTL: fields.originalTtl,
      expiration: fields.expiration,
      inception: fields.inception,
      keyTag: fields.keyTag,
      signersName: fields.signerName,
      signature: Buffer.from(fields.signatureBase64, 'base64'),
    },
  }),
};
