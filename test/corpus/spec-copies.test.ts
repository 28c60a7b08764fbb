/**
 * docs/contract/ holds copies of the project's specification (docs/README.md); when the shared specification
 * is beside the checkout, every copy must equal it. Skipped in a clone of the project alone.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedFixturesDir } from './shared-dir.js';

const fixtures = sharedFixturesDir();
const specDir = fixtures === null ? null : join(dirname(fixtures), 'spec');
const docsDir = resolve(import.meta.dirname, '..', '..', 'docs', 'contract');

describe.skipIf(specDir === null || !existsSync(specDir))('docs/contract/ copies of the specification', () => {
  for (const name of [
    'api-v1.md',
    'decisions.md',
    'configuration.md',
    'mail-transport.md',
    'dnssec-chain.md',
    'grades.md',
    'jobs.md',
  ]) {
    it(`${name} equals the shared specification`, () => {
      expect(readFileSync(join(docsDir, name), 'utf8')).toBe(readFileSync(join(specDir!, name), 'utf8'));
    });
  }
});
