/**
 * The web assets step of the build (scripts/build-if-stale.mjs): every file a page of the service loads —
 * the report page's script and style sheet (src/web/report/), GraphiQL's script and style sheet
 * (@graphql-yoga/render-graphiql), the favicon — written to `<outDir>/web/` before the service starts,
 * each named by its content hash, with its gzip and brotli forms beside it and a manifest that every
 * worker reads (src/web/assets.ts). Any worker, and any instance of the same build, then serves any asset
 * from the first visit, and nothing is compressed while a visitor waits (docs/report.md "Assets").
 *
 * The output depends on the inputs only (esbuild's bundles and zlib's output are deterministic), so two
 * instances built from the same commit name the same files.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** The manifest's name inside the assets directory (read by src/web/assets.ts). */
export const MANIFEST = 'manifest.json';

/**
 * Above this size, brotli's best quality takes far longer for a few percent (GraphiQL's bundle, docs/report.md
 * "Assets"): quality 9.
 */
const BEST_QUALITY_UP_TO_BYTES = 1024 * 1024;

/**
 * Where GraphiQL's page options go: the renderer writes them into its inline script, which here becomes a
 * static file, so the script reads them from the page's `#graphiql-options` JSON block instead
 * (src/web/graphiql-page.ts writes it).
 */
const GRAPHIQL_OPTIONS_MARK = { netdiagOptions: '@@graphiql-options@@' };
const GRAPHIQL_OPTIONS_READ = "JSON.parse(document.getElementById('graphiql-options').textContent)";

async function compressed(content) {
  const quality = content.length <= BEST_QUALITY_UP_TO_BYTES ? 11 : 9;
  const [gz, br] = await Promise.all([
    gzipAsync(content, { level: 9 }),
    brotliAsync(content, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: quality, [zlib.BROTLI_PARAM_SIZE_HINT]: content.length },
    }),
  ]);
  return { gz, br };
}

/** The report page's client code and style sheet, bundled for browsers. */
async function reportFiles(esbuild) {
  const common = {
    absWorkingDir: root,
    bundle: true,
    write: false,
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
    charset: 'utf8',
  };
  const [script, style] = await Promise.all([
    esbuild.build({
      ...common,
      entryPoints: ['src/web/report/client/main.ts'],
      format: 'iife',
      platform: 'browser',
      // the browsers of the last few years: no transpiling of what they all run
      target: ['es2020', 'chrome90', 'firefox90', 'safari15'],
      tsconfig: 'src/web/report/client/tsconfig.json',
      outfile: 'report.js',
    }),
    esbuild.build({ ...common, entryPoints: ['src/web/report/report.css'], outfile: 'report.css' }),
  ]);
  return [
    { name: 'report.js', type: 'text/javascript; charset=utf-8', content: Buffer.from(script.outputFiles[0].contents) },
    { name: 'report.css', type: 'text/css; charset=utf-8', content: Buffer.from(style.outputFiles[0].contents) },
  ];
}

/**
 * GraphiQL's script and style sheet, cut out of the one page @graphql-yoga/render-graphiql renders (its
 * only API): the inline script (Monaco's workers as strings, the bundle, the start call) and the inline
 * style sheet. The start call's options are replaced by a read of the page's options block, so that the
 * script is the same file whatever the options.
 */
async function graphiqlFiles() {
  const { renderGraphiQL } = await import('@graphql-yoga/render-graphiql');
  const html = renderGraphiQL(GRAPHIQL_OPTIONS_MARK);
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)];
  const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)];
  if (scripts.length !== 1 || styles.length !== 1) {
    throw new Error(
      `@graphql-yoga/render-graphiql's page has ${scripts.length} inline scripts and ${styles.length} style sheets; this build expects one of each (scripts/build-web-assets.mjs)`,
    );
  }
  const mark = JSON.stringify(GRAPHIQL_OPTIONS_MARK);
  const code = scripts[0][1];
  if (code.split(mark).length !== 2) {
    throw new Error(
      "@graphql-yoga/render-graphiql's script does not pass its options once, as this build expects (scripts/build-web-assets.mjs)",
    );
  }
  return [
    {
      name: 'graphiql.js',
      type: 'text/javascript; charset=utf-8',
      content: Buffer.from(code.replace(mark, GRAPHIQL_OPTIONS_READ)),
    },
    { name: 'graphiql.css', type: 'text/css; charset=utf-8', content: Buffer.from(styles[0][1]) },
  ];
}

/** The favicon: the drawing as SVG (what pages link), and the same drawing as a 32 by 32 pixel ICO for /favicon.ico. */
function faviconFiles() {
  const svg = readFileSync(join(root, 'src/web/assets/favicon.svg'));
  return [
    { name: 'favicon.svg', type: 'image/svg+xml', content: svg },
    { name: 'favicon.ico', type: 'image/x-icon', content: drawIcon() },
  ];
}

/** The pulse line of src/web/assets/favicon.svg, in its 32-unit grid. */
const PULSE = [
  [5, 17],
  [11, 17],
  [14, 9],
  [18, 24],
  [21, 17],
  [27, 17],
];

/**
 * favicon.svg drawn again as pixels (a rounded blue square, a white pulse line), 16 samples a pixel, as an
 * ICO holding one 32-bit bitmap (the ICO format's BITMAPINFOHEADER with the height doubled for the mask,
 * rows bottom-up, then an all-zero AND mask: the alpha channel carries transparency).
 */
function drawIcon() {
  const size = 32;
  const samples = 4;
  const inSquare = (x, y) => {
    const r = 6;
    const cx = Math.min(Math.max(x, r), size - r);
    const cy = Math.min(Math.max(y, r), size - r);
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
  };
  const nearPulse = (x, y) => {
    for (let i = 1; i < PULSE.length; i++) {
      const [ax, ay] = PULSE[i - 1];
      const [bx, by] = PULSE[i];
      const dx = bx - ax;
      const dy = by - ay;
      const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)));
      if ((x - ax - t * dx) ** 2 + (y - ay - t * dy) ** 2 <= 1.5 * 1.5) return true;
    }
    return false;
  };
  const pixels = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let cover = 0;
      let white = 0;
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const px = x + (sx + 0.5) / samples;
          const py = y + (sy + 0.5) / samples;
          if (!inSquare(px, py)) continue;
          cover++;
          if (nearPulse(px, py)) white++;
        }
      }
      const n = samples * samples;
      const w = cover === 0 ? 0 : white / cover;
      // #1d4ed8 mixed with white by the share of samples on the line; BGRA, rows from the bottom
      const at = ((size - 1 - y) * size + x) * 4;
      pixels[at] = Math.round(0xd8 + (255 - 0xd8) * w);
      pixels[at + 1] = Math.round(0x4e + (255 - 0x4e) * w);
      pixels[at + 2] = Math.round(0x1d + (255 - 0x1d) * w);
      pixels[at + 3] = Math.round((255 * cover) / n);
    }
  }
  const mask = Buffer.alloc(size * 4 * (size / 32)); // 1 bit a pixel, rows padded to 4 bytes
  const header = Buffer.alloc(40);
  header.writeUInt32LE(40, 0);
  header.writeInt32LE(size, 4);
  header.writeInt32LE(size * 2, 8);
  header.writeUInt16LE(1, 12); // planes
  header.writeUInt16LE(32, 14); // bits per pixel
  header.writeUInt32LE(pixels.length + mask.length, 20);
  const image = Buffer.concat([header, pixels, mask]);
  const directory = Buffer.alloc(6 + 16);
  directory.writeUInt16LE(1, 2); // type: icon
  directory.writeUInt16LE(1, 4); // one image
  directory.writeUInt8(size, 6);
  directory.writeUInt8(size, 7);
  directory.writeUInt16LE(1, 10);
  directory.writeUInt16LE(32, 12);
  directory.writeUInt32LE(image.length, 14);
  directory.writeUInt32LE(directory.length, 18);
  return Buffer.concat([directory, image]);
}

/**
 * Writes every asset, its .gz and .br, and the manifest into `<outDir>/web/`. `esbuild` is the module the
 * caller already loaded.
 */
export async function buildWebAssets(outDir, esbuild) {
  const dir = join(outDir, 'web');
  mkdirSync(dir, { recursive: true });
  const files = [...(await reportFiles(esbuild)), ...(await graphiqlFiles()), ...faviconFiles()];
  const manifest = { assets: {} };
  await Promise.all(
    files.map(async ({ name, type, content }) => {
      const hash = createHash('sha256').update(content).digest('base64url').slice(0, 16);
      const dot = name.lastIndexOf('.');
      const file = `${name.slice(0, dot)}.${hash}${name.slice(dot)}`;
      const { gz, br } = await compressed(content);
      writeFileSync(join(dir, file), content);
      writeFileSync(join(dir, `${file}.gz`), gz);
      writeFileSync(join(dir, `${file}.br`), br);
      manifest.assets[name] = { file, type, hash };
    }),
  );
  // in name order, whatever order the compressions finished in
  manifest.assets = Object.fromEntries(Object.entries(manifest.assets).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}
