/**
 * Static files the pages load (the API reference's Swagger UI from the swagger-ui-dist package), served
 * by the service itself so that they work without internet access. Each file is read and compressed once
 * (brotli and gzip, chosen by Accept-Encoding), named by its content hash, and sent with
 * `Cache-Control: immutable` and an ETag (304 on If-None-Match): a browser fetches it once per version.
 * Compression runs on libuv's thread pool: done synchronously on a first visit, GraphiQL's script held
 * the worker's event loop long enough that no other request, not even /healthz, was answered meanwhile
 * (docs/performance.md "Measured reasons behind design choices").
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

export interface StaticAsset {
  /** the URL path, with the content hash in the file name */
  readonly path: string;
  readonly type: string;
  readonly etag: string;
  readonly identity: Buffer;
  readonly gzip: Buffer;
  readonly br: Buffer;
}

export async function loadAsset(
  prefix: string,
  name: string,
  type: string,
  content: Buffer | string,
): Promise<StaticAsset> {
  const identity = typeof content === 'string' ? Buffer.from(content) : content;
  const hash = createHash('sha256').update(identity).digest('base64url').slice(0, 16);
  const dot = name.lastIndexOf('.');
  const [gzipped, br] = await Promise.all([
    gzipAsync(identity, { level: 9 }),
    // quality 9: close to the best ratio at a fraction of quality 11's time, paid once per start
    brotliAsync(identity, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9 } }),
  ]);
  return {
    path: `${prefix}/${name.slice(0, dot)}.${hash}${name.slice(dot)}`,
    type,
    etag: `"${hash}"`,
    identity,
    gzip: gzipped,
    br,
  };
}

export async function loadFileAsset(prefix: string, name: string, type: string, file: string): Promise<StaticAsset> {
  return loadAsset(prefix, name, type, await readFile(file));
}

/** A content coding this module serves: brotli, gzip, or none. */
export type AssetEncoding = 'br' | 'gzip' | null;

/**
 * The asset's response: the smallest encoding the client accepts, or 304 when it has this version.
 * Immutable by default (a content-hashed path); a document at a fixed path passes a revalidating policy.
 */
export function assetResponse(
  request: Request,
  asset: StaticAsset,
  cacheControl = 'public, max-age=31536000, immutable',
): Response {
  const { status, headers, encoding } = negotiate(request, asset, cacheControl);
  if (status === 304) return new Response(null, { status, headers });
  const body = encoding === 'br' ? asset.br : encoding === 'gzip' ? asset.gzip : asset.identity;
  return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), { headers });
}

/**
 * An asset whose encoded forms are read only when a client asks for one (the build's prepared files,
 * src/web/assets.ts): the same negotiation and headers as assetResponse.
 */
export interface EncodedAsset {
  readonly type: string;
  readonly etag: string;
  body(encoding: AssetEncoding): Promise<Uint8Array<ArrayBuffer>>;
}

export async function encodedAssetResponse(
  request: Request,
  asset: EncodedAsset,
  cacheControl = 'public, max-age=31536000, immutable',
): Promise<Response> {
  const { status, headers, encoding } = negotiate(request, asset, cacheControl);
  if (status === 304 || request.method === 'HEAD') return new Response(null, { status, headers });
  return new Response(await asset.body(encoding), { headers });
}

function negotiate(
  request: Request,
  asset: { readonly type: string; readonly etag: string },
  cacheControl: string,
): { status: 200 | 304; headers: Record<string, string>; encoding: AssetEncoding } {
  const headers: Record<string, string> = {
    'content-type': asset.type,
    'cache-control': cacheControl,
    etag: asset.etag,
    vary: 'accept-encoding',
  };
  if (
    request.headers
      .get('if-none-match')
      ?.split(',')
      .some((tag) => tag.trim() === asset.etag)
  ) {
    return { status: 304, headers, encoding: null };
  }
  const accepted = acceptedEncodings(request.headers.get('accept-encoding'));
  const encoding: AssetEncoding = accepted.has('br') ? 'br' : accepted.has('gzip') ? 'gzip' : null;
  if (encoding) headers['content-encoding'] = encoding;
  return { status: 200, headers, encoding };
}

/** Codings the client accepts (q > 0), RFC 9110 §12.5.3. */
function acceptedEncodings(header: string | null): Set<string> {
  const accepted = new Set<string>();
  for (const part of (header ?? '').split(',')) {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (coding && (q === undefined || Number(q.slice(2)) > 0)) accepted.add(coding);
  }
  return accepted;
}
