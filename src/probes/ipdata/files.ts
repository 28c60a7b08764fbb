/**
 * Bounded file reads for the IP databases. A database is read whole into memory
 * once per process; the bound keeps a wrong path (a disk image, /dev/zero) from
 * exhausting memory.
 */
import { open } from 'node:fs/promises';

/** Reads a regular file of at most `maxBytes`; throws naming the path otherwise. */
export async function readBoundedFile(path: string, maxBytes: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new Error(`${path} is not a regular file`);
    if (info.size > maxBytes) throw new Error(`${path} is ${info.size} bytes, more than the ${maxBytes} allowed`);
    const buffer = Buffer.allocUnsafe(info.size);
    let filled = 0;
    while (filled < info.size) {
      const { bytesRead } = await handle.read(buffer, filled, info.size - filled, filled);
      if (bytesRead === 0) break; // truncated while we read: keep what is there
      filled += bytesRead;
    }
    return filled === info.size ? buffer : buffer.subarray(0, filled);
  } finally {
    await handle.close();
  }
}
