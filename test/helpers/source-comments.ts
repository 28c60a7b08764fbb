/**
 * The comments of the project's source files, as TypeScript's parser sees them (a `//` inside a string
 * or a regular expression is no comment), each with the line it starts on and its text with the comment
 * markers (`//`, `/*`, the leading `*` of a block's lines) taken out and the lines joined, so that a
 * phrase broken across two comment lines reads as one (a run of `//` lines is one comment).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, relative } from 'node:path';
import ts from 'typescript';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface SourceComment {
  /** the file, relative to the repository root, with forward slashes */
  readonly file: string;
  /** 1-based line the comment starts on */
  readonly line: number;
  /** the comment's text, markers removed, its lines joined by single spaces */
  readonly text: string;
  /** each line of the comment with its 1-based line number, markers removed */
  readonly lines: readonly { readonly line: number; readonly text: string }[];
  /** a documentation comment (`/** … *\/`), which belongs to the declaration after it */
  readonly jsdoc: boolean;
  /** the file's text between this comment and the next token or comment is only white space, and the next is a comment */
  readonly followedByComment: boolean;
}

/** The 1-based line of `text` (a comment's joined text) at `offset`: a figure split over two lines is on the first. */
export function lineAt(comment: SourceComment, offset: number): number {
  let at = 0;
  for (const l of comment.lines) {
    if (l.text === '') continue;
    at += l.text.length + 1;
    if (offset < at) return l.line;
  }
  return comment.lines.at(-1)!.line;
}

const SOURCE_FILE = /\.(ts|mts|cts|js|mjs|cjs)$/;

/** The source files at the root of the repository (`.dependency-cruiser.cjs`, `vitest.config.ts`, …). */
export function rootSourceFiles(): string[] {
  return readdirSync(ROOT).filter((name) => SOURCE_FILE.test(name) && statSync(join(ROOT, name)).isFile());
}

/** The source files below `dir` (relative to the root), skipping folders whose relative path `skip` names. */
export function sourceFiles(dir: string, skip: readonly string[] = []): string[] {
  const walk = (d: string): string[] =>
    readdirSync(join(ROOT, d)).flatMap((name) => {
      const path = `${d}/${name}`;
      if (name === 'node_modules' || skip.some((s) => path === s || path.startsWith(`${s}/`))) return [];
      if (statSync(join(ROOT, path)).isDirectory()) return walk(path);
      return SOURCE_FILE.test(name) && !name.endsWith('.d.ts') && !name.endsWith('.d.mts') ? [path] : [];
    });
  return walk(dir);
}

/**
 * The string literals of one file, each as a one-line comment: in `.dependency-cruiser.cjs` the rules'
 * explanations are strings, read by people as comments are.
 */
export function stringsOf(file: string, text = readFileSync(join(ROOT, file), 'utf8')): SourceComment[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const found: SourceComment[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      found.push({
        file,
        line,
        text: node.text,
        lines: [{ line, text: node.text }],
        jsdoc: false,
        followedByComment: false,
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every comment of one file (relative to the root), in order; `text` stands for the file's content in the test's own examples. */
export function commentsOf(file: string, text = readFileSync(join(ROOT, file), 'utf8')): SourceComment[] {
  const kind = /\.(js|mjs|cjs)$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
  const seen = new Set<number>();
  const ranges: ts.CommentRange[] = [];
  const collect = (found: ts.CommentRange[] | undefined): void => {
    for (const range of found ?? []) {
      if (seen.has(range.pos)) continue;
      seen.add(range.pos);
      ranges.push(range);
    }
  };
  // Every token's leading and trailing trivia: a comment before a closing brace belongs to no node.
  const visit = (node: ts.Node): void => {
    collect(ts.getLeadingCommentRanges(text, node.pos));
    collect(ts.getTrailingCommentRanges(text, node.end));
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  collect(ts.getLeadingCommentRanges(text, source.endOfFileToken.pos));
  ranges.sort((a, b) => a.pos - b.pos);
  // A run of `//` comments on consecutive lines is one comment, read as one text.
  const merged: { pos: number; end: number }[] = [];
  for (const range of ranges) {
    const last = merged.at(-1);
    const between = last ? text.slice(last.end, range.pos) : '';
    const lineComments =
      last !== undefined && range.kind === ts.SyntaxKind.SingleLineCommentTrivia && text.startsWith('//', last.pos);
    if (lineComments && /^[ \t]*\r?\n[ \t]*$/.test(between)) last.end = range.end;
    else merged.push({ pos: range.pos, end: range.end });
  }
  return merged.map((range, i) => {
    const first = source.getLineAndCharacterOfPosition(range.pos).line + 1;
    const raw = text.slice(range.pos, range.end);
    const lines = raw.split('\n').map((l, i) => ({
      line: first + i,
      text: l
        .replace(/^\s*(\/\/+|\/\*+|\*+(?!\/))?/, '')
        .replace(/\*+\/\s*$/, '')
        .trim(),
    }));
    return {
      file: relative(ROOT, join(ROOT, file)).split('\\').join('/'),
      line: first,
      text: lines
        .map((l) => l.text)
        .filter((l) => l !== '')
        .join(' '),
      lines,
      jsdoc: raw.startsWith('/**') && !raw.startsWith('/**/'),
      followedByComment: i + 1 < merged.length && text.slice(range.end, merged[i + 1]!.pos).trim() === '',
    };
  });
}
