/**
 * Writes a small MaxMind DB file (MaxMind DB File Format Specification 2.0,
 * https://maxmind.github.io/MaxMind-DB/) for tests: an IPv6 search tree with
 * 32-bit records, IPv4 networks under ::/96 as the spec's "IPv4 in an IPv6 tree"
 * layout expects, a data section of maps, strings and unsigned integers, and
 * the metadata map. Enough to feed maxmind's Reader with IPinfo-Lite-shaped
 * records; networks must not overlap.
 */
import ipaddr from 'ipaddr.js';

export type MmdbValue = string | number | { readonly [key: string]: MmdbValue };

export interface MmdbNetwork {
  /** CIDR, e.g. "8.8.8.0/24" or "2001:4860::/32" */
  network: string;
  data: { readonly [key: string]: MmdbValue };
}

type Child = TreeNode | { dataOffset: number } | null;
interface TreeNode {
  children: [Child, Child];
  number?: number;
}

const TYPE = { pointer: 1, utf8: 2, uint16: 5, uint32: 6, map: 7, uint64: 9, array: 11 } as const;

function controlBytes(type: number, size: number): number[] {
  const out: number[] = [];
  let sizeBits: number;
  const extra: number[] = [];
  if (size < 29) sizeBits = size;
  else if (size < 29 + 256) {
    sizeBits = 29;
    extra.push(size - 29);
  } else if (size < 285 + 65536) {
    sizeBits = 30;
    const s = size - 285;
    extra.push(s >> 8, s & 0xff);
  } else {
    sizeBits = 31;
    const s = size - 65821;
    extra.push((s >> 16) & 0xff, (s >> 8) & 0xff, s & 0xff);
  }
  if (type <= 7) out.push((type << 5) | sizeBits);
  else out.push(sizeBits, type - 7); // extended type: type bits 0, then type - 7
  return [...out, ...extra];
}

function unsignedBytes(value: number | bigint): number[] {
  const bytes: number[] = [];
  let v = BigInt(value);
  while (v > 0n) {
    bytes.unshift(Number(v & 0xffn));
    v >>= 8n;
  }
  return bytes;
}

function encode(value: MmdbValue | readonly string[] | bigint, asType?: number): number[] {
  if (typeof value === 'string') {
    const bytes = [...Buffer.from(value, 'utf8')];
    return [...controlBytes(TYPE.utf8, bytes.length), ...bytes];
  }
  if (typeof value === 'number' || typeof value === 'bigint') {
    const bytes = unsignedBytes(value);
    return [...controlBytes(asType ?? TYPE.uint32, bytes.length), ...bytes];
  }
  if (Array.isArray(value)) {
    return [...controlBytes(TYPE.array, value.length), ...value.flatMap((v: string) => encode(v))];
  }
  const entries = Object.entries(value as { [key: string]: MmdbValue });
  return [...controlBytes(TYPE.map, entries.length), ...entries.flatMap(([k, v]) => [...encode(k), ...encode(v)])];
}

function bitsOf(network: string): { bits: number[]; prefix: number } {
  const [address, prefix] = ipaddr.parseCIDR(network);
  const bytes = address.toByteArray();
  const bits: number[] = address.kind() === 'ipv4' ? new Array<number>(96).fill(0) : [];
  for (const byte of bytes) for (let b = 7; b >= 0; b--) bits.push((byte >> b) & 1);
  return { bits, prefix: address.kind() === 'ipv4' ? prefix + 96 : prefix };
}

export function writeMmdb(networks: readonly MmdbNetwork[], databaseType = 'ipinfo_lite.mmdb'): Buffer {
  // Data section: one encoded map per network.
  const data: number[] = [];
  const root: TreeNode = { children: [null, null] };
  for (const { network, data: record } of networks) {
    const dataOffset = data.length;
    data.push(...encode(record));
    const { bits, prefix } = bitsOf(network);
    let node = root;
    for (let depth = 0; depth < prefix - 1; depth++) {
      const bit = bits[depth] as 0 | 1;
      let next = node.children[bit];
      if (next === null) {
        next = { children: [null, null] };
        node.children[bit] = next;
      }
      if (!('children' in next)) throw new Error(`${network} overlaps another network`);
      node = next;
    }
    const last = bits[prefix - 1] as 0 | 1;
    if (node.children[last] !== null) throw new Error(`${network} overlaps another network`);
    node.children[last] = { dataOffset };
  }

  // Number the nodes breadth-first; the root is node 0.
  const order: TreeNode[] = [];
  const queue: TreeNode[] = [root];
  while (queue.length > 0) {
    const node = queue.shift()!;
    node.number = order.length;
    order.push(node);
    for (const child of node.children) if (child !== null && 'children' in child) queue.push(child);
  }
  const nodeCount = order.length;
  const recordValue = (child: Child): number => {
    if (child === null) return nodeCount; // "no data"
    if ('children' in child) return child.number!;
    return nodeCount + 16 + child.dataOffset;
  };
  const tree = Buffer.alloc(nodeCount * 8);
  order.forEach((node, i) => {
    tree.writeUInt32BE(recordValue(node.children[0]), i * 8);
    tree.writeUInt32BE(recordValue(node.children[1]), i * 8 + 4);
  });

  const metadata = [
    ...controlBytes(TYPE.map, 9),
    ...encode('node_count'),
    ...encode(nodeCount, TYPE.uint32),
    ...encode('record_size'),
    ...encode(32, TYPE.uint16),
    ...encode('ip_version'),
    ...encode(6, TYPE.uint16),
    ...encode('database_type'),
    ...encode(databaseType),
    ...encode('languages'),
    ...encode(['en']),
    ...encode('binary_format_major_version'),
    ...encode(2, TYPE.uint16),
    ...encode('binary_format_minor_version'),
    ...encode(0, TYPE.uint16),
    ...encode('build_epoch'),
    ...encode(BigInt(1_750_000_000), TYPE.uint64),
    ...encode('description'),
    ...encode({ en: 'netdiag test database' }),
  ];
  return Buffer.concat([
    tree,
    Buffer.alloc(16),
    Buffer.from(data),
    Buffer.from([0xab, 0xcd, 0xef]),
    Buffer.from('MaxMind.com', 'ascii'),
    Buffer.from(metadata),
  ]);
}
