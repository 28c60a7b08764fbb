/**
 * The REST documents schema/rest/<tool>.graphql are what `npm run rest:documents` writes from the checks'
 * types (scripts/rest-documents/generate.ts), and the generator selects every field of a result type:
 * nested objects, union members as inline fragments, the `@flatten` marks and the exclusions of its tables.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema, parse, type FieldNode, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { checkOfTool } from '../../../src/graphql/check-declaration.js';
import {
  generateRestDocuments,
  orphanDocuments,
  ROOT,
  restDocumentOf,
} from '../../../scripts/rest-documents/generate.js';
import { readFlattenMarks } from '../../../src/rest/flatten.js';

const documents = generateRestDocuments();

describe('the REST documents', () => {
  for (const document of documents) {
    it(`${document.path} is current`, () => {
      const target = join(ROOT, document.path);
      const current = existsSync(target) ? readFileSync(target, 'utf8') : null;
      expect(
        current === document.text,
        `${document.path} is stale: run \`npm run rest:documents\`, then \`npm run codegen\``,
      ).toBe(true);
    });
  }

  it('are one per check, and no other', () => {
    expect(orphanDocuments(documents)).toEqual([]);
  });

  it("carry exactly the @flatten marks their check's declaration derives (a composite's parts that are single checks)", () => {
    for (const document of documents) {
      const parsed = parse(document.text);
      const operation = parsed.definitions[0] as OperationDefinitionNode;
      const root = operation.selectionSet.selections[0] as FieldNode;
      const { paths } = readFlattenMarks(parsed, root, document.path);
      const tool = document.path.replace(/^schema\/rest\/|\.graphql$/g, '');
      expect(paths.map((p) => p.at(-1)).sort(), tool).toEqual(
        (checkOfTool(tool)?.flatten?.() ?? []).map((typeAndField) => typeAndField.split('.')[1]).sort(),
      );
    }
  });
});

describe('restDocumentOf', () => {
  const schema = buildSchema(`
    type Query { foo(domain: String!, port: Int): Foo }
    type Foo { domain: String! parts: [Part!]! verdict: Verdict }
    type Verdict { status: String! internal: String }
    union Part = Plain | Wrapped
    type Plain { name: String! }
    type Wrapped { inner: Verdict }
  `);
  const foo = { tool: 'foo-check', field: 'foo', rest: { domain: 'required', port: 'optionalPort' } } as const;

  it('selects every field, recursively, with union members as inline fragments and the REST parameters as variables', () => {
    const text = restDocumentOf(foo, schema, { flattened: [], excluded: [] });
    expect(text).toMatch(/^# GET \/api\/v1\/foo-check\./);
    expect(text.replace(/^#.*\n/gm, '')).toBe(`query FooCheck($domain: String!, $port: Int) {
  foo(domain: $domain, port: $port) {
    domain
    parts {
      ... on Plain {
        name
      }
      ... on Wrapped {
        inner {
          status
          internal
        }
      }
    }
    verdict {
      status
      internal
    }
  }
}
`);
  });

  it('marks the flattened fields and leaves out the excluded ones', () => {
    const text = restDocumentOf(foo, schema, { flattened: ['Wrapped.inner'], excluded: ['Verdict.internal'] });
    expect(text).toContain('inner @flatten {');
    expect(text).not.toContain('internal');
  });

  it('refuses a table entry that names no selected field, and a type that refers to itself', () => {
    expect(() => restDocumentOf(foo, schema, { flattened: ['Wrapped.outer'], excluded: [] })).toThrow(
      'names fields it does not select: Wrapped.outer',
    );
    const loop = buildSchema('type Query { loop: Loop } type Loop { name: String next: Loop }');
    expect(() =>
      restDocumentOf({ tool: 'loop', field: 'loop', rest: {} }, loop, { flattened: [], excluded: [] }),
    ).toThrow('Loop → Loop refers to itself');
  });
});
