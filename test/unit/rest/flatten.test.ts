import { Kind, parse, print, type FieldNode, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { applyFlatten, readFlattenMarks } from '../../../src/rest/flatten.js';

/** The marks of a REST document, as routes.ts reads them. */
function marksOf(text: string) {
  const document = parse(text);
  const root = (document.definitions[0] as OperationDefinitionNode).selectionSet.selections[0] as FieldNode;
  if (root.kind !== Kind.FIELD) throw new Error('no root field');
  return readFlattenMarks(document, root, 'doc');
}

const COMPOSITE = `query {
  composite {
    checks {
      id
      details {
        ... on PlainDetails { total }
        ... on WrappedDetails { single @flatten { status nested { inner @flatten { value } } } }
        ... on OtherDetails { other @flatten { status } }
      }
    }
  }
}`;

describe('@flatten in a REST document', () => {
  it('reads the marked fields as paths from the root value, inner fields first, and leaves GraphQL a document without them', () => {
    const { document, paths } = marksOf(COMPOSITE);
    expect(paths).toEqual([
      ['checks', 'details', 'single', 'nested', 'inner'],
      ['checks', 'details', 'single'],
      ['checks', 'details', 'other'],
    ]);
    expect(print(document)).toBe(print(parse(COMPOSITE.replaceAll(' @flatten', ''))));
  });

  it("puts each marked field's value in place of the object holding it, through lists; other members are left alone", () => {
    const answer = {
      checks: [
        { id: 'plain', details: { total: 2 } },
        { id: 'wrapped', details: { single: { status: 'ok', nested: { inner: { value: 1 } } } } },
        { id: 'other', details: { other: { status: 'info' } } },
        { id: 'not run', details: { other: null } },
        { id: 'no details', details: null },
      ],
    };
    expect(applyFlatten(answer, marksOf(COMPOSITE).paths)).toEqual({
      checks: [
        { id: 'plain', details: { total: 2 } },
        { id: 'wrapped', details: { status: 'ok', nested: { value: 1 } } },
        { id: 'other', details: { status: 'info' } },
        { id: 'not run', details: null },
        { id: 'no details', details: null },
      ],
    });
    // the executor's result is not changed in place
    expect(answer.checks[1]!.details).toHaveProperty('single');
  });

  it('leaves a document without marks, and its answer, as they are', () => {
    const answer = { a: { b: 1 } };
    const text = 'query { root { a { b } } }';
    const { document, paths } = marksOf(text);
    expect(paths).toEqual([]);
    expect(print(document)).toBe(print(parse(text)));
    expect(applyFlatten(answer, paths)).toBe(answer);
  });

  it('refuses a document whose answer could not be read back: two marks in one object, a name marked in one member only, a mark off a field', () => {
    expect(() => marksOf('query { root { h { a @flatten { x } b @flatten { y } } } }')).toThrow(
      'doc: two @flatten fields would both replace the object at h',
    );
    expect(() => marksOf('query { root { h { ... on A { v @flatten { x } } ... on B { v { x } } } } }')).toThrow(
      'doc: "v" at h is flattened in one branch and not in another',
    );
    expect(() => marksOf('query { root { h { ... on A @flatten { v { x } } } } }')).toThrow(
      'doc: @flatten belongs on a field',
    );
  });
});
