/**
 * docs/contract/ holds copies of the project's specification (docs/README.md), and data/ the Mozilla TLS
 * guidelines the grades contract names (read by tls-rating); when the shared specification is beside the
 * checkout, every copy must equal it. Skipped in a clone of the project alone.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedFixturesDir } from './shared-dir.js';

const fixtures = sharedFixturesDir();
const specDir = fixtures === null ? null : join(dirname(fixtures), 'spec');
const docsDir = resolve(import.meta.dirname, '..', '..', 'docs', 'contract');
const dataDir = resolve(import.meta.dirname, '..', '..', 'data');

describe.skipIf(specDir === null || !existsSync(specDir))('docs/contract/ copies of the specification', () => {
  // every Markdown file of the specification has its copy: a new contract cannot be forgotten
  const contracts =
    specDir !== null && existsSync(specDir) ? readdirSync(specDir).filter((n) => n.endsWith('.md')) : [];
  for (const name of contracts) {
    it(`${name} equals the shared specification`, () => {
      expect(readFileSync(join(docsDir, name), 'utf8')).toBe(readFileSync(join(specDir!, name), 'utf8'));
    });
  }
  it('data/mozilla-tls-guidelines-5.7.json equals the shared specification', () => {
    const name = 'mozilla-tls-guidelines-5.7.json';
    expect(readFileSync(join(dataDir, name), 'utf8')).toBe(readFileSync(join(specDir!, name), 'utf8'));
  });
});
