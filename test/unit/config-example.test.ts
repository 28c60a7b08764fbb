/** config.example.json lists every configuration key with its default (docs/configuration.md "Configuration"). */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildConfig } from '../../src/config.js';

const example = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../config.example.json'), 'utf8'));

/** "section.key" paths down to the first level below a section (values may be lists or maps). */
function keyPaths(config: Record<string, unknown>): string[] {
  return Object.entries(config).flatMap(([section, value]) =>
    Object.keys(value as Record<string, unknown>).map((key) => `${section}.${key}`),
  );
}

describe('config.example.json', () => {
  it('is a valid configuration that means exactly the defaults', () => {
    expect(buildConfig(example)).toEqual(buildConfig({}));
  });

  it('names every key the configuration has', () => {
    expect(keyPaths(example).sort()).toEqual(keyPaths(buildConfig({}) as unknown as Record<string, unknown>).sort());
  });
});
