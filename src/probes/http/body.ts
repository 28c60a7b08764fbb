/**
 * The body of the guarded fetcher's final response: content-coding decoding (gzip,
 * deflate in both its zlib and raw forms, br: the codings the fetcher offers) and the
 * byte bounds. At most `maxBytes` decoded bytes are kept and at most `maxBytes` coded
 * bytes received, so a compression bomb costs no more than a plain body; reading ends
 * early at the cap or when `stopWhen` says so.
 */
import zlib from 'node:zlib';
import { ProbeError } from '../errors.js';

export type BodyEnd = 'complete' | 'cap' | 'stopped';

type Coding = 'identity' | 'gzip' | 'deflate' | 'br';

function codingOf(contentEncoding: string | undefined, upstream: string): Coding {
  const value = (contentEncoding ?? '').trim().toLowerCase();
  if (value === '' || value === 'identity') return 'identity';
  if (value === 'gzip' || value === 'x-gzip') return 'gzip';
  if (value === 'deflate') return 'deflate';
  if (value === 'br') return 'br';
  throw new ProbeError(
    'MALFORMED',
    upstream,
    `response from ${upstream} uses content-encoding "${value}", which was not offered`,
  );
}

/**
 * Receives the body's bytes, decodes the content coding, keeps at most maxBodyBytes
 * decoded bytes, and ends early at the cap or when stopWhen says so. Received
 * (still coded) bytes are bounded by the same number.
 */
export class BodyCollector {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private received = 0;
  private decoder: zlib.Gunzip | zlib.Inflate | zlib.InflateRaw | zlib.BrotliDecompress | null = null;
  private finished = false;
  private readonly coding: Coding;

  /** Throws ProbeError MALFORMED for a content coding that was not offered. */
  constructor(
    contentEncoding: string | undefined,
    private readonly maxBytes: number,
    private readonly stopWhen: ((chunk: Buffer) => boolean) | undefined,
    private readonly upstream: string,
    private readonly onDone: (body: Buffer, end: BodyEnd) => void,
    private readonly onError: (e: unknown) => void,
  ) {
    this.coding = codingOf(contentEncoding, upstream);
  }

  push(chunk: Buffer): void {
    if (this.finished) return;
    this.received += chunk.length;
    if (this.coding === 'identity') this.keep(chunk);
    else if (this.received > this.maxBytes) this.done('cap');
    else this.decoderFor(chunk).write(chunk);
  }

  end(): void {
    if (this.finished) return;
    if (this.decoder === null) this.done('complete');
    else this.decoder.end();
  }

  destroy(): void {
    this.finished = true;
    this.decoder?.destroy();
  }

  private decoderFor(first: Buffer): NonNullable<BodyCollector['decoder']> {
    if (this.decoder !== null) return this.decoder;
    // Truncated or unterminated streams still yield what they hold, as browsers show it.
    const flush = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
    let decoder: NonNullable<BodyCollector['decoder']>;
    if (this.coding === 'gzip') decoder = zlib.createGunzip(flush);
    else if (this.coding === 'br')
      decoder = zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH });
    // "deflate" means the zlib format (RFC 9110 §8.4.1.2), but some servers send raw
    // deflate; a zlib stream starts with a header whose first 16 bits are a multiple of 31.
    else decoder = isZlibHeader(first) ? zlib.createInflate(flush) : zlib.createInflateRaw(flush);
    decoder.on('data', (decoded: Buffer) => this.keep(decoded));
    decoder.on('end', () => this.done('complete'));
    decoder.on('error', (e: Error) => {
      if (!this.finished) {
        this.finished = true;
        this.onError(
          new ProbeError(
            'MALFORMED',
            this.upstream,
            `the ${this.coding} body from ${this.upstream} is corrupt: ${e.message}`,
            { cause: e },
          ),
        );
      }
    });
    this.decoder = decoder;
    return decoder;
  }

  private keep(bytes: Buffer): void {
    if (this.finished || bytes.length === 0) return;
    const room = this.maxBytes - this.kept;
    const piece = bytes.length > room ? bytes.subarray(0, room) : bytes;
    if (piece.length > 0) {
      this.chunks.push(piece);
      this.kept += piece.length;
    }
    if (piece.length < bytes.length) this.done('cap');
    else if (this.stopWhen?.(piece)) this.done('stopped');
  }

  private done(end: BodyEnd): void {
    if (this.finished) return;
    this.finished = true;
    this.decoder?.destroy();
    this.onDone(Buffer.concat(this.chunks, this.kept), end);
  }
}

function isZlibHeader(bytes: Buffer): boolean {
  if (bytes.length < 2) return true;
  const cmf = bytes[0]!;
  const flg = bytes[1]!;
  return (cmf & 0x0f) === 8 && ((cmf << 8) | flg) % 31 === 0;
}
