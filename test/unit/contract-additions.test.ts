/**
 * What a client sees of the checks may only grow: the GraphQL schema, every REST document, `GET /api/v1`
 * (tools, parameters, prices) and the OpenAPI document are compared with the copies taken before the checks
 * became one folder each (test/fixtures/contract-baseline/, from the service as it was). Everything the
 * baseline holds must still be there, unchanged; what is new is allowed. Descriptions that name the
 * composites' parts (which grow when a check joins a composite) are the only listed differences.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildSchema,
  findBreakingChanges,
  type GraphQLNamedType,
  type GraphQLSchema,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  Kind,
  parse,
  printSchema,
  type SelectionSetNode,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../src/graphql-server/schema.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

const BASELINE = join(import.meta.dirname, '../fixtures/contract-baseline');
const ROOT = join(import.meta.dirname, '../..');

/**
 * Descriptions that name a composite's parts: a check that joins the composite adds itself to them
 * (src/checks/composite/shared/parts.ts). Their text may change; their type may only grow.
 */
const PART_LISTS = new Set([
  'Query.websiteHealthCheck',
  'WebsiteCheck',
  'WebsiteCheckDetails',
  'Query.mailhealthCheck',
  'MailCheck',
  'MailCheckDetails',
  'MailPartNotTested',
]);

const baselineText = (file: string) => readFileSync(join(BASELINE, file), 'utf8');

/** Every description of the schema, by coordinate (Type, Type.field, Type.field(arg:), Enum.VALUE). */
function descriptions(s: GraphQLSchema): Map<string, string | null | undefined> {
  const out = new Map<string, string | null | undefined>();
  for (const type of Object.values(s.getTypeMap()) as GraphQLNamedType[]) {
    if (type.name.startsWith('__')) continue;
    out.set(type.name, type.description);
    if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type))
      for (const field of Object.values(type.getFields())) {
        out.set(`${type.name}.${field.name}`, field.description);
        for (const arg of 'args' in field ? field.args : [])
          out.set(`${type.name}.${field.name}(${arg.name}:)`, arg.description);
      }
    if (isEnumType(type))
      for (const value of type.getValues()) out.set(`${type.name}.${value.name}`, value.description);
  }
  return out;
}

/** `a.b.c` paths of every field a selection selects, fragments' type conditions included. */
function selectedPaths(set: SelectionSetNode | undefined, prefix = ''): string[] {
  if (!set) return [];
  return set.selections.flatMap((s) => {
    if (s.kind === Kind.FIELD) {
      const path = `${prefix}${s.name.value}${(s.directives ?? []).map((d) => `@${d.name.value}`).join('')}`;
      return [path, ...selectedPaths(s.selectionSet, `${path}.`)];
    }
    if (s.kind === Kind.INLINE_FRAGMENT)
      return selectedPaths(s.selectionSet, `${prefix}...${s.typeCondition?.name.value ?? ''}.`);
    return [`${prefix}<fragment spread>`];
  });
}

/**
 * The differences of `now` from `before` that are not additions, as JSON paths: an object keeps every key
 * (more are allowed), an array keeps every element in order (more are allowed), anything else is equal.
 */
function removals(before: unknown, now: unknown, path: string, out: string[]): string[] {
  if (Array.isArray(before)) {
    if (!Array.isArray(now)) return [...out, `${path}: was an array`];
    let j = 0;
    for (const [i, element] of before.entries()) {
      while (j < now.length && removals(element, now[j], `${path}[${i}]`, []).length > 0) j++;
      if (j === now.length) return [...out, `${path}[${i}]: missing or changed`];
      j++;
    }
    return out;
  }
  if (before !== null && typeof before === 'object') {
    if (now === null || typeof now !== 'object' || Array.isArray(now)) return [...out, `${path}: was an object`];
    for (const [key, value] of Object.entries(before))
      if (!(key in now)) out.push(`${path}.${key}: missing`);
      else removals(value, (now as Record<string, unknown>)[key], `${path}.${key}`, out);
    return out;
  }
  if (before !== now && !partListStillNamed(path, before, now))
    out.push(`${path}: ${JSON.stringify(before)} → ${JSON.stringify(now)}`);
  return out;
}

/**
 * A description that names a composite's parts, in the OpenAPI document: the composite's operation and
 * the schemas named in PART_LISTS.
 */
function partListStillNamed(path: string, before: unknown, now: unknown): boolean {
  if (typeof before !== 'string' || typeof now !== 'string' || !/\.(description|summary)$/.test(path)) return false;
  const composite = /\/api\/v1\/(website-health-check|mailhealth-check)\b/.test(path);
  return composite || [...PART_LISTS].some((name) => path.includes(`.${name}.`));
}

describe('what a client sees only grows', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the GraphQL schema: no breaking change, every description kept', () => {
    const before = buildSchema(baselineText('schema.graphql'));
    const now = buildSchema(printSchema(schema));
    expect(findBreakingChanges(before, now)).toEqual([]);
    const was = descriptions(before);
    const is = descriptions(now);
    const changed = [...was].filter(([coordinate, text]) => is.get(coordinate) !== text && !PART_LISTS.has(coordinate));
    expect(changed.map(([coordinate]) => coordinate)).toEqual([]);
  });

  it('every REST document selects what it selected, with the same variables', () => {
    for (const file of readdirSync(join(BASELINE, 'rest'))) {
      const before = parse(baselineText(`rest/${file}`));
      const now = parse(readFileSync(join(ROOT, 'schema/rest', file), 'utf8'));
      const [was] = before.definitions;
      const [is] = now.definitions;
      if (was?.kind !== Kind.OPERATION_DEFINITION || is?.kind !== Kind.OPERATION_DEFINITION)
        throw new Error(`${file}: not an operation`);
      expect(is.name?.value, file).toBe(was.name?.value);
      const variables = (op: typeof was) => op.variableDefinitions?.map((v) => `${v.variable.name.value}`) ?? [];
      expect(variables(is), file).toEqual(variables(was));
      const selected = new Set(selectedPaths(is.selectionSet));
      expect(
        selectedPaths(was.selectionSet).filter((p) => !selected.has(p)),
        file,
      ).toEqual([]);
    }
  });

  it('GET /api/v1: every tool as it was (address, family, price, parameters, summary)', async () => {
    const before = JSON.parse(baselineText('api-index.json'));
    const now = await (await t.get('/api/v1', { key: null })).json();
    const withoutTools = (index: { data: object }) => ({ ...index, data: { ...index.data, tools: [] } });
    expect(removals(withoutTools(before), withoutTools(now), '$', [])).toEqual([]);
    const names = (index: { data: { tools: { tool: string }[] } }) => index.data.tools.map((t) => t.tool);
    expect(removals(names(before), names(now), '$.tools', [])).toEqual([]);
    for (const tool of before.data.tools) {
      const current = now.data.tools.find((n: { tool: string }) => n.tool === tool.tool);
      // a composite's summary names its parts (PART_LISTS)
      const composite = tool.family === 'Composite';
      expect(composite ? { ...current, summary: tool.summary } : current).toEqual(tool);
    }
  });

  it('the OpenAPI document: everything it held, examples aside', async () => {
    const before = JSON.parse(baselineText('openapi.json'));
    const now = await (await t.get('/api/v1/openapi.json', { key: null })).json();
    expect(removals(before, withoutExamples(now), '$', [])).toEqual([]);
  });
});

/** Examples are answers recorded in the test labs (`npm run openapi:examples`): their values change. */
function withoutExamples(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutExamples);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'examples' && key !== 'example')
      .map(([key, v]) => [key, withoutExamples(v)]),
  );
}
