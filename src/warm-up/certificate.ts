/**
 * A self-signed certificate for the warm-up's own TLS server (./fake-upstreams.ts), made in this process:
 * Node reads X.509 but does not write it, and the handshake the warm-up exercises needs a server
 * certificate. A P-256 key made at each start, the certificate (RFC 5280 §4.1: version 3, a random serial,
 * ecdsa-with-SHA256 per RFC 5758 §3.2, the name as subject and issuer and as the one subjectAltName)
 * written in DER here. It is trusted by nobody: the checks that meet it report it untrusted, as they
 * would any self-signed one; it only ever serves the warm-up on loopback.
 */
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';

/** DER: a tag, its length (short or long form, X.690 §8.1.3), its content. */
function der(tag: number, content: Buffer): Buffer {
  const length = content.length;
  const head =
    length < 0x80
      ? Buffer.from([tag, length])
      : length < 0x100
        ? Buffer.from([tag, 0x81, length])
        : Buffer.from([tag, 0x82, length >> 8, length & 0xff]);
  return Buffer.concat([head, content]);
}

const sequence = (...items: Buffer[]) => der(0x30, Buffer.concat(items));
const set = (...items: Buffer[]) => der(0x31, Buffer.concat(items));

/** An OBJECT IDENTIFIER from its dotted form (X.690 §8.19: the first two arcs in one byte, then base 128). */
function oid(dotted: string): Buffer {
  const [first, second, ...rest] = dotted.split('.').map(Number) as [number, number, ...number[]];
  const bytes = [40 * first + second];
  for (const arc of rest) {
    const groups = [arc & 0x7f];
    for (let value = arc >>> 7; value > 0; value >>>= 7) groups.unshift((value & 0x7f) | 0x80);
    bytes.push(...groups);
  }
  return der(0x06, Buffer.from(bytes));
}

/** UTCTime (RFC 5280 §4.1.2.5.1: YYMMDDHHMMSSZ, for years before 2050). */
function utcTime(date: Date): Buffer {
  const text = date.toISOString().replace(/[-:T]/g, '').slice(2, 14);
  return der(0x17, Buffer.from(`${text}Z`, 'ascii'));
}

const ECDSA_WITH_SHA256 = '1.2.840.10045.4.3.2';
const COMMON_NAME = '2.5.4.3';
const SUBJECT_ALT_NAME = '2.5.29.17';
const DAY_MS = 86_400_000;

export interface SelfSignedCertificate {
  /** PEM, for tls.createServer */
  readonly cert: string;
  readonly key: string;
}

/** A certificate for `name`, valid from a day ago to a day ahead. */
export function selfSignedCertificate(name: string, now = new Date()): SelfSignedCertificate {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const algorithm = sequence(oid(ECDSA_WITH_SHA256));
  const subject = sequence(set(sequence(oid(COMMON_NAME), der(0x0c, Buffer.from(name, 'utf8')))));
  // a positive INTEGER: the high bit of the first byte clear
  const serial = randomBytes(8);
  serial[0] = serial[0]! & 0x7f;
  const altNames = sequence(oid(SUBJECT_ALT_NAME), der(0x04, sequence(der(0x82, Buffer.from(name, 'ascii')))));
  const tbs = sequence(
    der(0xa0, der(0x02, Buffer.from([2]))),
    der(0x02, serial),
    algorithm,
    subject,
    sequence(utcTime(new Date(now.getTime() - DAY_MS)), utcTime(new Date(now.getTime() + DAY_MS))),
    subject,
    publicKey.export({ type: 'spki', format: 'der' }),
    der(0xa3, sequence(altNames)),
  );
  const signature = sign('sha256', tbs, privateKey);
  const certificate = sequence(tbs, algorithm, der(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const lines = certificate
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n');
  return {
    cert: `-----BEGIN CERTIFICATE-----\n${lines}\n-----END CERTIFICATE-----\n`,
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
  };
}
