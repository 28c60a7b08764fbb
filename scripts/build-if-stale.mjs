#!/usr/bin/env node
/**
 * Builds dist/ when it is missing or older than any source file, so that `npm start` on a fresh clone and
 * the tests that start the real service run what production runs. Usable as a module (`buildIfStale()`)
 * and as a command (`--always`: `npm run build`).
 *
 * dist/ is one bundle of the service and the packages it imports (esbuild: ES modules, split at the
 * service's own lazy imports, whitespace and syntax minified, names kept so that stack traces stay
 * readable; source maps beside it). A worker then loads less code than from the separate modules tsc
 * would emit, and starts faster (docs/operations.md "Under load"; the figures: docs/performance.md
 * "Measured reasons behind design choices"). The netdiag command has a bundle of its own beside it
 * (dist/cli.cjs, commandBundleOptions). Type checking is `npm run typecheck`.
 * node_modules/ stays needed at run time for the files read from packages (the bundled IP data,
 * swagger-ui-dist's assets) and for lmdb, whose native binary is loaded from its package.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const inputs = [
  join(root, 'src'),
  join(root, 'package-lock.json'),
  fileURLToPath(import.meta.url),
  join(root, 'scripts', 'build-web-assets.mjs'),
];
const checksDir = join(root, 'src', 'checks');

/** The newest change below `path`; a check's tests (`*.test.ts` beside its code) are not in the bundle. */
function newestMtime(path) {
  const info = statSync(path);
  if (!info.isDirectory()) return path.endsWith('.test.ts') ? 0 : info.mtimeMs;
  let newest = info.mtimeMs;
  // the entries' kinds come with the listing: one stat per file, none twice
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(child));
    else if (!entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(child).mtimeMs);
  }
  return newest;
}

const subfolders = (dir) =>
  readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

/**
 * Every check's declaration, by the rule src/graphql-server/load-declarations.ts follows at run time: the
 * `check.ts` of each folder `src/checks/<family>/<check>/`, in path order.
 */
function checkDeclarations() {
  return subfolders(checksDir).flatMap((family) =>
    subfolders(join(checksDir, family))
      .map((check) => `${family}/${check}/check.ts`)
      .filter((file) => existsSync(join(checksDir, file))),
  );
}

/**
 * src/graphql-server/load-declarations.ts reads the folders at run time; a bundle has no folders, so the
 * module becomes what `contentsOf` writes from the same list, in the same order.
 */
function declarationsPlugin(name, contentsOf) {
  return {
    name,
    setup(build) {
      build.onLoad({ filter: /[\\/]src[\\/]graphql-server[\\/]load-declarations\.ts$/ }, () => {
        const files = checkDeclarations();
        if (files.length === 0) throw new Error(`no check declarations in ${checksDir}`);
        return { contents: contentsOf(files), loader: 'ts', resolveDir: join(root, 'src', 'graphql-server') };
      });
    },
  };
}

/** The service's bundle: the declarations' imports written out. */
const declarationsWrittenOut = declarationsPlugin('declarations-written-out', (files) =>
  files.map((file) => `import '../checks/${file}';`).join('\n'),
);

/**
 * The command's bundle (bin/netdiag.mjs): each declaration behind a function of its own, called only for
 * the checks the command selected (src/graphql-server/declaration-selection.ts, docs/cli.md "Performance"),
 * one after the other in path order. The bundle is one CommonJS script (commandBundleOptions), where a
 * module not yet needed is evaluated at its first `require`.
 */
const declarationsSelectable = declarationsPlugin('declarations-selectable', (files) => {
  const entries = files.map((file) => {
    const [family, tool] = file.split('/');
    return `{ family: ${JSON.stringify(family)}, tool: ${JSON.stringify(tool)}, load: () => require('../checks/${file}') }`;
  });
  return [
    "import { declarationsToLoad } from './declaration-selection.ts';",
    `const files = [${entries.join(',\n')}];`,
    'for (const { load } of declarationsToLoad(files)) load();',
  ].join('\n');
});

/**
 * The script with every character outside ASCII written as a \u escape (a regular expression and a licence
 * comment keep a few, which esbuild leaves as they are): V8 then holds the command's source, which stays in
 * memory for the whole run, with one byte a character rather than two (the peak memory this saves:
 * docs/cli.md "Performance"). An escape means the same in a string, a template's value, a regular expression,
 * an identifier or a comment (only a tagged template's raw text would differ).
 */
function asciiOnly(text) {
  return text.replace(/[^\0-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The command's bundle, dist/cli.cjs: one CommonJS script rather than the service's ES module chunks, so
 * that bin/netdiag.mjs compiles it with V8's code cache on every Node line (node:vm's `cachedData`; Node 20
 * has no compile cache for ES modules), the functions a run compiled included. `import.meta.url`, which a
 * script has not, is the address of a module in dist/ (every chunk sits there, and the service's are .js:
 * src/probes/ipdata/ip-data-builder.ts finds build-ip-data-main.js beside it).
 */
function commandBundleOptions() {
  return {
    ...bundleOptions(),
    format: 'cjs',
    splitting: false,
    banner: {
      js: 'const __netdiagModuleUrl = require("node:url").pathToFileURL(require("node:path").join(__dirname, "cli.js")).href;',
    },
    define: { 'import.meta.url': '__netdiagModuleUrl' },
    plugins: [declarationsSelectable, withoutJsonSerializerCompiler],
  };
}

/**
 * graphql-jit (src/graphql-server/plugins/use-precompiled-documents.ts) imports fast-json-stringify, and with it
 * ajv, when it loads, but calls it only for its `customJSONSerializer` option, which the service leaves
 * off: the bundle gets a stand-in that says so should it ever be called, and each worker loads neither
 * (docs/performance.md "Measured reasons behind design choices").
 */
const withoutJsonSerializerCompiler = {
  name: 'without-json-serializer-compiler',
  setup(build) {
    build.onResolve({ filter: /^fast-json-stringify$/ }, () => ({
      path: 'fast-json-stringify',
      namespace: 'left-out',
    }));
    build.onLoad({ filter: /.*/, namespace: 'left-out' }, () => ({
      contents:
        "export default function fastJson() { throw new Error('fast-json-stringify is left out of this build: graphql-jit\\'s customJSONSerializer must stay off (scripts/build-if-stale.mjs)'); }",
      loader: 'js',
    }));
  },
};

/**
 * How the service's code is bundled (entry points and output directory aside): also used by benchmarks that
 * load the service's modules in their own process (bench/my-ip.ts), so that they measure what `npm start` runs.
 */
export function bundleOptions() {
  return {
    absWorkingDir: root,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: true,
    // CommonJS packages inside an ES module bundle call require(); give each chunk one.
    banner: {
      js: "import { createRequire as __netdiagCreateRequire } from 'node:module'; const require = __netdiagCreateRequire(import.meta.url);",
    },
    // lmdb loads its native binary from its own package directory: it cannot live inside a bundle
    external: ['lmdb'],
    plugins: [declarationsWrittenOut, withoutJsonSerializerCompiler],
    logLevel: 'warning',
  };
}

/**
 * `outDir` is dist/ but for the test that builds elsewhere (test/unit/build-if-stale.test.ts). esbuild's
 * service process is stopped once the build is done: it would otherwise live under `npm start`'s server
 * for the server's whole life.
 */
export async function buildIfStale({ quiet = false, always = false, outDir = dist } = {}) {
  const stamp = join(outDir, '.built');
  const builtAt = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
  if (!always && builtAt > 0 && Math.max(...inputs.map(newestMtime)) <= builtAt) return false;
  if (!quiet) process.stderr.write('netdiag: building dist/ (esbuild bundle of src/main.ts and the web assets)\n');
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    throw new Error(
      'dist/ is missing or stale and esbuild is not installed: run `npm ci` (with dev dependencies) and `npm run build`',
    );
  }
  rmSync(outDir, { recursive: true, force: true });
  try {
    await esbuild.build({
      ...bundleOptions(),
      entryPoints: [
        { in: 'src/main.ts', out: 'main' },
        // run as a process of its own by src/probes/ipdata/ip-data-builder.ts, found next to the chunk
        // that starts it (every chunk sits in dist/ itself)
        { in: 'src/probes/ipdata/build-ip-data-main.ts', out: 'build-ip-data-main' },
      ],
      outdir: outDir,
    });
    // the netdiag command (bin/netdiag.mjs): a script of its own beside the service's chunks in dist/ (the
    // code finds its files from there)
    await esbuild.build({
      ...commandBundleOptions(),
      entryPoints: { cli: 'src/cli/main.ts' },
      outExtension: { '.js': '.cjs' },
      outdir: outDir,
    });
    const command = join(outDir, 'cli.cjs');
    writeFileSync(command, asciiOnly(readFileSync(command, 'utf8')));
    // the pages' scripts, style sheets and icons, hashed and compressed before any visit
    // loaded only to build: each run of the command (bin/netdiag.mjs) checks freshness and nothing more
    const { buildWebAssets } = await import('./build-web-assets.mjs');
    await buildWebAssets(outDir, esbuild);
  } finally {
    await esbuild.stop();
  }
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    await buildIfStale({ always: process.argv.includes('--always') });
  } catch (e) {
    process.stderr.write(`netdiag: ${e.message}\n`);
    process.exit(1);
  }
}
