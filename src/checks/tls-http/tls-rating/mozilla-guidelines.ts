/**
 * The bundled copy of Mozilla's server-side TLS guidelines 5.7 (data/mozilla-tls-guidelines-5.7.json, from
 * the ssl-config-generator project), read once on first use.
 */
import { readFileSync } from 'node:fs';
import { projectFile } from '../../../project-files.js';
import type { MozillaGuidelines } from './mozilla.js';

export const MOZILLA_GUIDELINES_FILE = 'data/mozilla-tls-guidelines-5.7.json';

let guidelines: MozillaGuidelines | undefined;

export function mozillaGuidelines(): MozillaGuidelines {
  guidelines ??= JSON.parse(readFileSync(projectFile(MOZILLA_GUIDELINES_FILE), 'utf8')) as MozillaGuidelines;
  return guidelines;
}
