/** Types of scripts/build-if-stale.mjs for the TypeScript that imports it (bench/my-ip.ts). */
import type { BuildOptions } from 'esbuild';

export function bundleOptions(): BuildOptions;
export function buildIfStale(options?: { quiet?: boolean; always?: boolean }): Promise<boolean>;
