/**
 * The image builds its own node_modules and dist/ (Dockerfile), and a host's data directory holds the
 * key-signing secret: none of them may enter the build context.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';

it('.dockerignore keeps node_modules, dist and the data directory (its secret) out of the build context', () => {
  const lines = readFileSync(resolve(import.meta.dirname, '../../.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  for (const entry of ['node_modules/', 'dist/', '.netdiag/']) expect(lines).toContain(entry);
});
