/**
 * The documentation: the generated files (scripts/docs/generate.ts: docs/tools/<family>.md,
 * docs/configuration.md, the README's tools table) equal what `npm run docs` would write now; the README
 * stays a map (≤ 15 KB, every tool in it); the environment variables documented on configuration keys
 * are the ones src/config.ts reads; every relative link of README.md and docs/ resolves, anchors included.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configKeys, generateDocs, ROOT, staleToolPages } from '../../scripts/docs/generate.js';
import { buildConfig } from '../../src/config.js';
import { ENVIRONMENT_VARIABLES } from '../../src/config/environment.js';
import { allChecks } from '../../src/graphql/check-declaration.js';

const files = await generateDocs();

describe('generated documentation', () => {
  for (const file of files) {
    it(`${file.path} is current`, () => {
      const current = existsSync(join(ROOT, file.path)) ? readFileSync(join(ROOT, file.path), 'utf8') : null;
      expect(current === file.text, `${file.path} is stale: run \`npm run docs\` and commit the result`).toBe(true);
    });
  }

  it('docs/tools/ holds no page that no family writes', () => {
    expect(staleToolPages(files), 'run `npm run docs`: it removes them').toEqual([]);
  });
});

describe('README.md', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

  it('is a map: at most 15 KB', () => {
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(15 * 1024);
  });

  it('names and links every tool', () => {
    for (const check of allChecks()) expect(readme).toContain(`[\`${check.tool}\`](docs/tools/`);
  });
});

describe('configuration keys', () => {
  const keys = configKeys().flatMap((s) => s.keys);

  it('every key is described in the schema (`.describe()` or `.meta({ description })` in src/config.ts)', () => {
    expect(keys.filter((k) => !k.description).map((k) => k.path)).toEqual([]);
  });

  it('the environment variables documented are those the configuration reads (src/config/environment.ts), each setting its key', () => {
    const read = new Set(ENVIRONMENT_VARIABLES.map((v) => v.name));
    const documented = keys.filter((k) => k.env !== undefined);
    expect(new Set(documented.map((k) => k.env))).toEqual(read);
    for (const key of documented) {
      const value = key.env!.endsWith('PORT')
        ? '8181'
        : key.env === 'REDIS_URL'
          ? 'redis://127.0.0.1:6390/0'
          : key.env === 'NETDIAG_ROLE'
            ? 'api'
            : 'a-value-0123456789';
      // a role of one kind needs Redis
      const base = key.env === 'NETDIAG_ROLE' ? { store: { redisUrl: 'redis://127.0.0.1:6390/0' } } : {};
      const config = buildConfig(base, { [key.env!]: value }) as unknown as Record<string, Record<string, unknown>>;
      const [section, name] = key.path.split('.') as [string, string];
      expect(JSON.stringify(config[section]?.[name]), key.path).toContain(value === '8181' ? '8181' : value);
    }
  });
});

/** GitHub's heading anchors: lower-case, punctuation dropped, spaces as dashes, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const counts = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    if (fenced) continue;
    for (const m of line.matchAll(/<a id="([^"]+)"/g)) anchors.add(m[1]!);
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (!heading) continue;
    const base = heading[1]!
      .replace(/`/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = counts.get(base) ?? 0;
    counts.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? markdownFiles(path) : name.endsWith('.md') ? [path] : [];
  });
}

describe('links', () => {
  // the contract copies are the specification's, as published; the notes are checked where they are inserted
  // (the generated pages of docs/tools/, relative to which their links are written)
  const pages = [join(ROOT, 'README.md'), ...markdownFiles(join(ROOT, 'docs'))].filter(
    (p) => !p.includes(join('docs', 'contract')) && !p.includes(join('docs', 'tools', 'notes')),
  );
  for (const page of pages) {
    it(`every relative link of ${relative(ROOT, page)} resolves`, () => {
      const text = readFileSync(page, 'utf8').replace(/```[\s\S]*?```/g, '');
      const broken: string[] = [];
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]!;
        if (/^[a-z]+:/.test(target)) continue;
        const [path, anchor] = target.split('#') as [string, string | undefined];
        const file = path === '' ? page : resolve(dirname(page), path);
        if (!existsSync(file)) {
          broken.push(target);
          continue;
        }
        if (anchor && file.endsWith('.md') && !anchorsOf(readFileSync(file, 'utf8')).has(anchor)) broken.push(target);
      }
      expect(broken).toEqual([]);
    });
  }

  it('every docs/… path named in the code exists', () => {
    const missing: string[] = [];
    for (const dir of ['src', 'test', 'scripts', 'bench']) {
      const walk = (d: string): string[] =>
        readdirSync(d).flatMap((name) => {
          const path = join(d, name);
          return statSync(path).isDirectory() ? walk(path) : /\.(ts|mts|mjs|js)$/.test(name) ? [path] : [];
        });
      for (const file of walk(join(ROOT, dir)))
        for (const m of readFileSync(file, 'utf8').matchAll(/\bdocs\/[\w./-]+\.md\b/g))
          if (!existsSync(join(ROOT, m[0]))) missing.push(`${relative(ROOT, file)}: ${m[0]}`);
    }
    expect(missing).toEqual([]);
  });

  // files move (a check into its folder, jobs into src/jobs/): a page naming the old place misleads its reader
  it('every src/, test/, bench/ or scripts/ path named in README.md, SECURITY.md and docs/ exists', () => {
    const missing: string[] = [];
    for (const page of [...pages, join(ROOT, 'SECURITY.md')])
      for (const m of readFileSync(page, 'utf8').matchAll(/`((?:src|test|bench|scripts)\/[\w./-]+?)(?::[\w:]+)?`/g))
        if (!/[*<]/.test(m[1]!) && !existsSync(join(ROOT, m[1]!))) missing.push(`${relative(ROOT, page)}: ${m[1]}`);
    expect(missing).toEqual([]);
  });
});
