/**
 * Records what the MDN HTTP Observatory package itself concludes over test/fixtures/observatory-corpus.json,
 * for src/checks/tls-http/http-rating/observatory-corpus.test.ts to hold http-rating's own implementation to
 * (test/fixtures/observatory-expected.json).
 *
 *   npm pack @mdn/mdn-http-observatory@1.4.8 && tar xzf mdn-mdn-http-observatory-1.4.8.tgz   # → package/
 *   npm install --prefix <dir> --ignore-scripts jsdom@26.1.0 tldts@7 tough-cookie@5         # its analyzers' modules
 *   npx tsx scripts/observatory-corpus.ts <package dir> <dir>/node_modules
 *   npx biome format --write test/fixtures/observatory-expected.json
 *
 * Only the package's analyzers, grader and scanner run, from a copy of its src/ in a temporary directory in
 * which the two modules that can open connections or need a database are replaced: the retriever hands the
 * scanner the responses built here from a corpus case, and the config module is a constant. Nothing opens a
 * connection. The responses are built as the package's retriever builds them (retriever.js): the https
 * session graded when it answered, its Set-Cookie lines (redirects included) put in a tough-cookie jar as
 * http-cookie-agent puts them, the document's http-equiv metas read by the package's own
 * parseHttpEquivHeaders (jsdom), `httpsRedirects` set to the http session's history as the package sets it,
 * and the preflight's request Origin as the package's own tests give it.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type {
  ObservedHop,
  ObservedSession,
  ObservedSite,
} from '../src/checks/tls-http/http-rating/observatory/inputs.js';

interface Corpus {
  preloaded: { name: string; mode: string; include_subdomains?: boolean }[];
  cases: { name: string; site: ObservedSite }[];
}

export interface RecordedTest {
  result: string;
  pass: boolean;
  scoreModifier: number;
  description: string;
}

export type RecordedCase =
  | { name: string; error: string }
  | {
      name: string;
      algorithmVersion: number;
      score: number;
      grade: string;
      testsPassed: number;
      testsFailed: number;
      testsQuantity: number;
      tests: Record<string, RecordedTest>;
    };

const root = fileURLToPath(new URL('..', import.meta.url));
const CORPUS = join(root, 'test/fixtures/observatory-corpus.json');
const EXPECTED = join(root, 'test/fixtures/observatory-expected.json');
const PACKAGE_VERSION = '1.4.8';

/** The package's HTML descriptions as text: tags out, white space collapsed (results.ts keeps them so). */
export function descriptionText(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

const RETRIEVER_STUB = `
import { Requests } from "../types.js";
export async function retrieve(hostname) {
  const requests = globalThis.__observatoryCorpusRequests;
  if (!requests || requests.hostname !== hostname) throw new Error("no prepared requests for " + hostname);
  return requests;
}
`;
const SESSION_STUB = 'export class Session {}\nexport function getPageText() { return null; }\n';
const CONFIG_STUB =
  'export const CONFIG = { retriever: { corsOrigin: "https://http-observatory.security.mozilla.org" } };\n';

/** AxiosHeaders as the analyzers use it: own enumerable fields, and `get` (case-insensitive) on the prototype. */
class Headers {
  constructor(fields: Record<string, string | string[]>) {
    Object.assign(this, fields);
  }
  get(name: string): string | string[] | undefined {
    const wanted = name.toLowerCase();
    for (const [key, value] of Object.entries(this)) if (key.toLowerCase() === wanted) return value;
    return undefined;
  }
}

function headersOf(hop: ObservedHop): Headers {
  const fields: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(hop.headers))
    fields[name] = name === 'set-cookie' ? value.split('\n') : value;
  return new Headers(fields);
}

async function main(): Promise<void> {
  const [packageDir, modulesDir] = process.argv.slice(2);
  if (!packageDir || !modulesDir)
    throw new Error('usage: tsx scripts/observatory-corpus.ts <package dir> <node_modules>');
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
  if (manifest.name !== '@mdn/mdn-http-observatory' || manifest.version !== PACKAGE_VERSION) {
    throw new Error(
      `expected @mdn/mdn-http-observatory ${PACKAGE_VERSION}, found ${manifest.name} ${manifest.version}`,
    );
  }
  const corpus = JSON.parse(readFileSync(CORPUS, 'utf8')) as Corpus;

  const work = mkdtempSync(join(tmpdir(), 'observatory-corpus-'));
  try {
    cpSync(join(packageDir, 'src'), join(work, 'src'), { recursive: true });
    writeFileSync(join(work, 'package.json'), JSON.stringify({ type: 'module' }));
    symlinkSync(resolve(modulesDir), join(work, 'node_modules'), 'dir');
    writeFileSync(join(work, 'src/retriever/retriever.js'), RETRIEVER_STUB);
    writeFileSync(join(work, 'src/retriever/session.js'), SESSION_STUB);
    writeFileSync(join(work, 'src/config.js'), CONFIG_STUB);
    // the preload list in the package's own format (retrieve-hsts.js writes it so)
    mkdirSync(join(work, 'conf'));
    const preload: Record<string, unknown> = {};
    for (const entry of corpus.preloaded) {
      preload[entry.name.trim().toLowerCase()] = {
        includeSubDomains: Boolean(entry.include_subdomains),
        includeSubDomainsForPinning: Boolean(entry.include_subdomains),
        mode: entry.mode,
        pinned: false,
      };
    }
    writeFileSync(join(work, 'conf/hsts-preload.json'), JSON.stringify(preload));

    const load = (path: string) => import(pathToFileURL(join(work, 'src', path)).href);
    const { Requests, HTML_TYPES } = await load('types.js');
    const { parseHttpEquivHeaders } = await load('retriever/utils.js');
    const { scan } = await load('scanner/index.js');
    const { SCORE_TABLE } = await load('grader/charts.js');
    const { CookieJar } = createRequire(join(work, 'package.json'))('tough-cookie');

    const responseOf = (session: ObservedSession) => {
      const final = session.hops.at(-1)!;
      return {
        status: final.status,
        statusText: '',
        headers: headersOf(final),
        data: session.body ?? '',
        verified: session.hops.every((hop) => !hop.certificateError),
        request: { headers: new Headers({}) },
        config: { url: final.url },
      };
    };

    const recorded: RecordedCase[] = [];
    for (const { name, site } of corpus.cases) {
      const requests = new Requests(site.hostname);
      const httpResponse = site.http === null ? null : responseOf(site.http);
      const httpsResponse = site.https === null ? null : responseOf(site.https);
      const graded = site.https ?? site.http;
      requests.responses.http = httpResponse;
      requests.responses.https = httpsResponse;
      const history = (site.http?.hops ?? []).map((hop) => ({ url: new URL(hop.url), status: hop.status }));
      requests.responses.httpRedirects = history;
      requests.responses.httpsRedirects = history;
      requests.responses.auto = httpsResponse ?? httpResponse;
      if (graded !== null) {
        const jar = new CookieJar();
        for (const hop of graded.hops) {
          for (const line of hop.headers['set-cookie']?.split('\n') ?? []) {
            jar.setCookieSync(line, hop.url, { ignoreError: true });
          }
        }
        requests.session = { url: new URL(graded.hops[0]!.url), jar };
        requests.resources.path = graded.body ?? '';
        const auto = requests.responses.auto;
        const mediaType = auto.headers['content-type']?.split(';')[0];
        auto.httpEquiv =
          HTML_TYPES.has(mediaType) && requests.resources.path
            ? parseHttpEquivHeaders(requests.resources.path, requests.session.url.href)
            : new Map();
      }
      requests.responses.cors =
        site.cors === null
          ? null
          : {
              status: 200,
              headers: new Headers(site.cors.headers),
              request: { headers: new Headers({ origin: site.cors.origin }) },
              verified: true,
            };
      (globalThis as Record<string, unknown>).__observatoryCorpusRequests = requests;
      try {
        const result = await scan(site.hostname);
        const tests: Record<string, RecordedTest> = {};
        for (const output of Object.values(result.tests) as {
          result: string;
          pass: boolean;
          scoreModifier: number;
          constructor: { name: string };
        }[]) {
          tests[output.constructor.name] = {
            result: output.result,
            pass: output.pass,
            scoreModifier: output.scoreModifier,
            description: descriptionText(SCORE_TABLE.get(output.result)?.description ?? ''),
          };
        }
        const { algorithmVersion, score, grade, testsPassed, testsFailed, testsQuantity } = result.scan;
        recorded.push({ name, algorithmVersion, score, grade, testsPassed, testsFailed, testsQuantity, tests });
      } catch (e) {
        recorded.push({ name, error: (e as Error).message });
      }
    }
    writeFileSync(
      EXPECTED,
      `${JSON.stringify({ package: `@mdn/mdn-http-observatory@${PACKAGE_VERSION}`, cases: recorded }, null, 2)}\n`,
    );
    console.log(`recorded ${recorded.length} cases in ${EXPECTED}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
