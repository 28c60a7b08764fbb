/**
 * Base32 with the extended hex alphabet (RFC 4648 §7), without padding: the form of NSEC3's hashed
 * owner names (RFC 5155 §3.3), lower case as they are written in owner labels.
 */
const BASE32HEX = '0123456789abcdefghijklmnopqrstuv';

export function base32hexEncode(bytes: Buffer): string {
  let out = '';
  let value = 0;
  let bits = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32HEX[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE32HEX[(value << (5 - bits)) & 31];
  return out;
}

/** Either case; throws on a character outside the alphabet. */
export function base32hexDecode(text: string): Buffer {
  const bytes: number[] = [];
  let value = 0;
  let bits = 0;
  for (const c of text.toLowerCase()) {
    const digit = BASE32HEX.indexOf(c);
    if (digit < 0) throw new Error(`"${text}" is not base32hex`);
    value = (value << 5) | digit;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
    value &= (1 << bits) - 1;
  }
  return Buffer.from(bytes);
}
