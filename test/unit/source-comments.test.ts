/**
 * What comments may say (issues 25 and 32):
 * - no measured figure in a comment of src/, scripts/, bench/ or a file at the root (`.dependency-cruiser.cjs`):
 *   a measurement (MB, µs, ms, s, %, req/s, a × or x speed-up, "about N …") goes stale where nobody
 *   re-measures it; the comment keeps the reason and the figure lives in docs/performance.md "Measured
 *   reasons behind design choices". Bounds, settings and a protocol's figures ("at most 64 KiB", "a 2 s
 *   bound", "every 250 ms", "decisions §8: 5 s") stay, and so do quoted examples of text;
 * - every citation of a document, a path and a quoted heading (README stands for README.md), names a file
 *   that exists and a markdown heading of exactly that text; documents are cited from this repository
 *   (docs/contract/ holds the specification's copies), never from `../shared/`;
 * - every `src/…` path, and every source file name (`connection.ts`, `tcp/connect.ts`), a comment names exists;
 * - a documentation comment sits on its declaration: two in a row leave the first on the wrong one.
 * Comments are read as TypeScript's parser sees them (test/helpers/source-comments.ts), their lines joined,
 * so that a figure or a heading split over two lines is read whole. No file is exempt.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  commentsOf,
  lineAt,
  ROOT,
  rootSourceFiles,
  sourceFiles,
  stringsOf,
  type SourceComment,
} from '../helpers/source-comments.js';

const GENERATED = ['src/rest/generated'];

/** A unit of measurement after a number: sizes in decimal units and durations below a millisecond. */
const MEASURED_UNIT = /\d[\d.,]*\s?(?:MB|GB|kB|KB|µs|ns)(?![\w])/g;
/** A share of something measured ("15 % of its throughput", "2 % (Node 20) more"); "100 % is info" is a rule. */
const PERCENT = /\d[\d.,]*\s?%[^.;]{0,25}\b(?:more|less|fewer|faster|slower|throughput|CPU|of its|of a worker)\b/g;
/** A speed-up or a ratio: "0.30×", "1.7×", "3x", "0.87x". "0.3 × protocol" is a formula, "0x1F" a number. */
const RATIO = /\d×|(?<![\w.])(?!0x)\d+(?:\.\d+)?x(?![\w])/g;
/** A rate. */
const RATE = /\d[\d.,]*\s?(?:k\s)?(?:req\/s|requests? (?:a|per) second|answers?\/s|answers? (?:a|per) second)/g;
/**
 * Approximation or measurement phrasing before a figure with a unit ("about 40 MB", "~17 µs", "roughly
 * 250 bytes"). Binary units (KiB, MiB) are those of limits and formats ("about 2 KiB of DER") and pass.
 */
const APPROXIMATE =
  /(?:\b(?:about|roughly|approximately|around|nearly|measured)\b|~)\s?\d[\d.,–-]*\s?(?:MB|GB|kB|KB|µs|ns|ms|s|%|×|x|bytes|req\/s|answers|requests)(?![\w])/gi;
/**
 * A duration in ms or s, whatever comes before it ("answers in 116 ms", "3004ms", "1.5 s"); a bare `s`
 * only after a space ("503s" and "/64s" are plurals). It is a finding unless its sentence states a bound
 * or a setting (DURATION_IS_A_BOUND).
 */
const DURATION = /(?<![\w./])\d[\d.,]*(?:\s?[–-]\s?\d[\d.,]*)?(?:\s?(?:ms|milliseconds?)|\s(?:s|seconds?))(?![\w])/g;
/** Words that make the durations of their sentence bounds, settings or a protocol's figures. */
const DURATION_IS_A_BOUND =
  /\b(?:at most|at least|within|up to|no more than|not below|under|beyond|bound(?:s|ed)?|time-?outs?|deadline|defaults?|every|interval|limits?|cap(?:s|ped)?|window|after|waits?|delay(?:s|ed)?|late|back-?off|TTL|max(?:imum)?|max[_-]age|resolution|rounded|expir\w*|retry|decisions §\d+|RFC \d+|grades\.md|web\.dev|adds?|adding)\b/i;
/** A benchmark's target ("target: at most 1.5×", "under 2× the p95 without it"): a bound, not a measurement. */
const TARGET = /\btarget\b|(?:at most|under|below|over|above|≤|<)\s*$/i;
/** A limit, stated as one just before a size: the figure after it is a bound, not a measurement. */
const LIMIT_BEFORE =
  /(?:at most|up to|no more than|under|below|over|above|beyond|≤|<|max(?:imum)?|limit(?:ed)?|cap(?:ped)?|bound(?:ed)?)\W+(?:\w+\W+)?$/i;

const PATTERNS: readonly RegExp[] = [MEASURED_UNIT, PERCENT, RATIO, RATE, APPROXIMATE, DURATION];

/** Quoted text (an example of a message or a tool's output) blanked out, its length kept. */
function withoutQuotes(text: string): string {
  return text.replace(/"[^"]*"|`[^`]*`|“[^”]*”/g, (q) => ' '.repeat(q.length));
}

/** The sentence of `text` around `at`: from the last ". " or ";" before it to the next after it. */
function sentenceAround(text: string, at: number): { before: string; whole: string } {
  const start = Math.max(text.lastIndexOf('. ', at) + 1, text.lastIndexOf(';', at) + 1, 0);
  const ends = [text.indexOf('. ', at), text.indexOf(';', at)].filter((i) => i >= 0);
  const end = ends.length > 0 ? Math.min(...ends) : text.length;
  return { before: text.slice(start, at), whole: text.slice(start, end) };
}

/** The measured figures of a comment's text (its lines joined): each matched text and where it starts. */
function measuredFigures(text: string): { figure: string; at: number }[] {
  const found: { figure: string; at: number }[] = [];
  const unquoted = withoutQuotes(text);
  for (const pattern of PATTERNS) {
    for (const m of (pattern === DURATION ? unquoted : text).matchAll(pattern)) {
      const sentence = sentenceAround(text, m.index);
      if (pattern === MEASURED_UNIT && LIMIT_BEFORE.test(sentence.before)) continue;
      if (pattern === DURATION && DURATION_IS_A_BOUND.test(sentence.whole)) continue;
      if (pattern === RATIO && TARGET.test(sentence.before)) continue;
      if (found.some((f) => f.at <= m.index && m.index < f.at + f.figure.length)) continue;
      found.push({ figure: m[0], at: m.index });
    }
  }
  return found.sort((a, b) => a.at - b.at);
}

const figuresIn = (text: string) => measuredFigures(text).map((f) => f.figure);

/** Files whose strings are read as comments: the layer rules' explanations (test/helpers/source-comments.ts). */
const STRINGS_ARE_COMMENTS = ['.dependency-cruiser.cjs'];

/** The comments of the files below `dirs` and of the root's own source files (`.dependency-cruiser.cjs`). */
function commentsBelow(dirs: readonly string[]): SourceComment[] {
  return [...rootSourceFiles(), ...dirs.flatMap((dir) => sourceFiles(dir, GENERATED))].flatMap((file) => [
    ...commentsOf(file),
    ...(STRINGS_ARE_COMMENTS.includes(file) ? stringsOf(file) : []),
  ]);
}

describe('measured figures', () => {
  const comments = commentsBelow(['src', 'scripts', 'bench']);

  it('the scan sees the comments of src/, scripts/, bench/ and the root (a sanity check of the parser)', () => {
    expect(comments.length).toBeGreaterThan(1000);
    const files = new Set(comments.map((c) => c.file));
    for (const file of ['.dependency-cruiser.cjs', 'scripts/start.mjs', 'bench/load-mix.ts', 'src/app.ts'])
      expect(files).toContain(file);
    // the layer rules' explanations are strings
    expect(
      comments.some((c) => c.file === '.dependency-cruiser.cjs' && c.text.startsWith('the primary holds ledgers')),
    ).toBe(true);
  });

  it('finds measurements and leaves bounds, settings and examples alone', () => {
    expect(figuresIn('a Redis hit costs 30–110 µs')).not.toEqual([]);
    expect(figuresIn('a new one per request cost my-ip 15 % of its throughput')).not.toEqual([]);
    expect(figuresIn('(bench/my-ip.ts: 0.25× → 0.30× of bare node:http)')).not.toEqual([]);
    expect(figuresIn('the tables it builds (about 40 MB)')).not.toEqual([]);
    expect(figuresIn('held the event loop for ~0.8 s')).not.toEqual([]);
    expect(figuresIn('a hit saves 100–2000 ms per WHOIS hop')).not.toEqual([]);
    expect(figuresIn('answered 2 % (Node 20) to 6 % (Node 24) more per second')).not.toEqual([]);
    // durations whatever the verb before them, ratios written with x, a figure split over two lines
    expect(figuresIn('a fresh worker answers dns-lookup in 116 ms')).toEqual(['116 ms']);
    expect(figuresIn('the first render: 3–5 s')).toEqual(['3–5 s']);
    expect(figuresIn('loading the schema and its checks cost it 25 MB')).toEqual(['25 MB']);
    expect(figuresIn('the pool is 3x faster than a socket per question')).toEqual(['3x']);
    expect(figuresIn('interactive p95 0.87x to 5.7x its latency')).toEqual(['0.87x', '5.7x']);
    const split = commentOf('// a fresh worker answered dns-lookup in 116\n// ms, a warm one in 70\n// ms');
    expect(figuresIn(split.text)).toEqual(['116 ms', '70 ms']);
    expect(measuredFigures(split.text).map((f) => lineAt(split, f.at))).toEqual([1, 2]);

    expect(figuresIn('at most 64 KiB')).toEqual([]);
    expect(figuresIn('a dead server costs at most 5 s per phase')).toEqual([]);
    expect(figuresIn('the memo is bounded under 1 MB')).toEqual([]);
    expect(figuresIn('a 16384-bit RSA key is about 2 KiB of DER')).toEqual([]);
    expect(figuresIn('again once at 40 % of the budget; 100 % is info')).toEqual([]);
    expect(figuresIn('ping prints "4 packets transmitted, 3 received, 25% packet loss, time 3004ms"')).toEqual([]);
    expect(figuresIn('0.3 × protocol + 0.3 × key exchange')).toEqual([]);
    expect(figuresIn('decimal, 0x-hex or 0-octal; 0x1F')).toEqual([]);
    expect(figuresIn('the p95 during the job (target: under 2× the p95 without it)')).toEqual([]);
    expect(figuresIn('5 s under the 30 s composite bound')).toEqual([]);
    expect(figuresIn('bound of one TCP connect (decisions §8: 5 s)')).toEqual([]);
    expect(figuresIn('/healthz on a new connection every 250 ms')).toEqual([]);
    expect(figuresIn('why it failed ("no answer within 5000 ms", "EHOSTUNREACH")')).toEqual([]);
    expect(figuresIn('turns answered charges into spurious 503s; one /48 holds 65,536 /64s')).toEqual([]);
  });

  it('no comment quotes one (they belong in docs/performance.md)', () => {
    const findings = comments.flatMap((c) =>
      measuredFigures(c.text).map(({ figure, at }) => `${c.file}:${lineAt(c, at)}: ${figure}`),
    );
    expect(findings).toEqual([]);
  });
});

/** The one comment of a snippet of source (for the examples above). */
function commentOf(source: string): SourceComment {
  return commentsOf('snippet.ts', `${source}\nexport {};\n`)[0]!;
}

/** The headings of a markdown file, as written after the `#`s (fenced code left out). */
function headingsOf(path: string): Set<string> {
  const headings = new Set<string>();
  let fenced = false;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) headings.add(heading[1]!);
  }
  return headings;
}

/** A path (`docs/operations.md`, or README for README.md) and a quoted heading; a `<placeholder>` is none. */
const CITATION = /(?<![\w./-])((?:\.\.\/)*[\w./-]*\.md|README)\)?,? "([^"]+)"/g;
/** A `src/…` path: stops before a placeholder, a glob or a brace list, which name no one file. */
const SRC_PATH = /(?<![\w./-])src\/[\w./@-]*[\w/]/g;

/** A TypeScript or ES module file name, bare or with its folders ("connection.ts", "tcp/connect.ts", "../helpers/app.ts"). */
const SOURCE_NAME = /(?<![\w./@<>*-])(?:\.{1,2}\/)*[\w-]+(?:\/[\w.-]+)*\.(?:ts|mts|mjs|cjs)\b/g;

/** The folder of `file` and each folder above it, up to the root (''). */
function foldersUp(file: string): string[] {
  const parts = file.split('/').slice(0, -1);
  return parts.map((_, i) => parts.slice(0, parts.length - i).join('/')).concat('');
}

/** Whether `path` is of this repository: another project's `src/…` (an upstream package's) names a folder we lack. */
function ofThisRepository(path: string): boolean {
  const top = /^src\/[^/]+/.exec(path)![0];
  return existsSync(join(ROOT, top)) || top.endsWith('.ts');
}

describe('citations and paths in comments', () => {
  const comments = commentsBelow(['src', 'test', 'bench', 'scripts']);

  it('every documentation comment sits on its declaration (never two in a row)', () => {
    // a file's first comment, when one follows it at once, is the module's own documentation
    const misplaced = comments.flatMap((c, i) =>
      c.jsdoc &&
      c.followedByComment &&
      comments[i - 1]?.file === c.file &&
      comments[i + 1]?.jsdoc &&
      comments[i + 1]!.file === c.file
        ? [`${c.file}:${c.line}: a documentation comment followed by another one, not by its declaration`]
        : [],
    );
    expect(misplaced).toEqual([]);
  });

  it('every cited document and heading exists', () => {
    const broken: string[] = [];
    for (const c of comments) {
      for (const m of c.text.matchAll(CITATION)) {
        const [, cited, heading] = m as unknown as [string, string, string];
        if (heading.includes('<')) continue;
        const path = cited === 'README' ? 'README.md' : cited;
        const where = `${c.file}:${c.line}: ${path} "${heading}"`;
        if (path.startsWith('../')) broken.push(`${where} (cite the copy in docs/contract/)`);
        else if (!existsSync(join(ROOT, path))) broken.push(`${where} (no such file)`);
        else if (!headingsOf(join(ROOT, path)).has(heading)) broken.push(`${where} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('every source file named in a comment exists', () => {
    // "connection.ts", "tcp/connect.ts", "../helpers/app.ts": from the commenting file's folder or one above
    // it, or as the end of a path in the repository ("verdict.ts" for src/checks/composite/shared/verdict.ts)
    const known = ['src', 'test', 'bench', 'scripts'].flatMap((dir) => sourceFiles(dir));
    const missing: string[] = [];
    for (const c of comments) {
      for (const m of c.text.matchAll(SOURCE_NAME)) {
        const name = m[0];
        const found =
          foldersUp(c.file).some((dir) => existsSync(join(ROOT, dir, name))) ||
          (!name.startsWith('.') && known.some((file) => file.endsWith(`/${name}`)));
        if (!found) missing.push(`${c.file}:${c.line}: ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('every src/… path named in a comment exists', () => {
    const missing: string[] = [];
    for (const c of comments) {
      for (const m of c.text.matchAll(SRC_PATH)) {
        const next = c.text[m.index + m[0].length];
        if (next === '<' || next === '*' || next === '{') continue;
        const path = m[0].replace(/\.$/, '');
        if (ofThisRepository(path) && !existsSync(join(ROOT, path))) missing.push(`${c.file}:${c.line}: ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
