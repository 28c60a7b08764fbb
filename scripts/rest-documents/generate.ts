/**
 * Writes each REST document schema/rest/<tool>.graphql from its check, so that a check's result fields are
 * declared once, by its GraphQL type (in its folder, src/checks/<family>/<check>/), and not a second time by hand:
 *
 * - the operation is named after the tool (`dns-lookup` → `DnsLookup`, the name src/rest/routes.ts finds
 *   the typed document by) and declares one variable per REST parameter of the definition, in its order,
 *   typed as the Query field's argument of that name;
 * - it selects the check's field and, recursively, every field of its result type, in the order the type
 *   declares them (the order of the REST answer's keys); a union's members become inline fragments, in
 *   the union's order;
 * - the fields the check's declaration flattens are marked `@flatten` (src/rest/flatten.ts: a composite
 *   derives them from its parts, src/checks/composite/shared/parts.ts); the fields it leaves out
 *   (`restLeavesOut`) are left out, each with its reason.
 *
 * `npm run rest:documents` writes them, `npm run rest:documents:check` fails when one is stale (CI), as
 * does test/unit/rest/rest-documents.test.ts. Then `npm run codegen` types them.
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  type DirectiveNode,
  type FieldNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type GraphQLType,
  getNamedType,
  type InlineFragmentNode,
  isInterfaceType,
  isLeafType,
  isObjectType,
  isUnionType,
  Kind,
  type OperationDefinitionNode,
  OperationTypeNode,
  parseType,
  print,
  type SelectionSetNode,
  type VariableDefinitionNode,
} from 'graphql';
import { builder } from '../../src/graphql/builder.js';
import { allChecks, type CheckDeclaration } from '../../src/graphql/check-declaration.js';
import { schema as servedSchema } from '../../src/graphql-server/schema.js';

export const ROOT = resolve(import.meta.dirname, '../..');
export const DOCUMENTS_DIR = 'schema/rest';

export interface GeneratedDocument {
  /** relative to the repository's root */
  readonly path: string;
  readonly text: string;
}

/** `dns-lookup` → `DnsLookup`: the operation's name, from which the code generator names `DnsLookupDocument`. */
export function operationNameOf(tool: string): string {
  return tool.replace(/(^|-)([a-z])/g, (_m, _dash, c: string) => c.toUpperCase());
}

/**
 * The schema as the types declare their fields. The served schema is sorted by name (for the printed
 * schema's diffs); a REST answer's keys follow its document, which follows the declarations.
 */
function declaredSchema(): GraphQLSchema {
  void servedSchema; // importing it registers every definition and type with the builder
  return builder.toSchema({ sortSchema: false });
}

const name = (value: string) => ({ kind: Kind.NAME, value }) as const;
const FLATTEN_MARK: DirectiveNode = { kind: Kind.DIRECTIVE, name: name('flatten') };

class DocumentWriter {
  readonly #used = new Set<string>();

  constructor(
    readonly tool: string,
    readonly flattened: ReadonlySet<string>,
    readonly excluded: ReadonlySet<string>,
  ) {}

  /** The selection of every field of `type` (an object, or a union's members), recursively. */
  selectionOf(type: GraphQLNamedType, path: readonly string[]): SelectionSetNode | undefined {
    if (isLeafType(type)) return undefined;
    if (path.includes(type.name))
      throw new Error(
        `${this.tool}: ${[...path, type.name].join(' → ')} refers to itself; a document cannot select every field of it`,
      );
    const inner = [...path, type.name];
    if (isUnionType(type)) {
      return {
        kind: Kind.SELECTION_SET,
        selections: type.getTypes().map(
          (member): InlineFragmentNode => ({
            kind: Kind.INLINE_FRAGMENT,
            typeCondition: { kind: Kind.NAMED_TYPE, name: name(member.name) },
            selectionSet: this.fieldsOf(member, inner),
          }),
        ),
      };
    }
    if (isInterfaceType(type))
      throw new Error(`${this.tool}: a field of interface type ${type.name}: select its implementations instead`);
    if (!isObjectType(type)) throw new Error(`${this.tool}: cannot select ${String(type)}`);
    return this.fieldsOf(type, inner);
  }

  fieldsOf(type: GraphQLObjectType, path: readonly string[]): SelectionSetNode {
    const selections: FieldNode[] = [];
    for (const field of Object.values(type.getFields())) {
      const key = `${type.name}.${field.name}`;
      if (this.excluded.has(key)) {
        this.#used.add(key);
        continue;
      }
      if (field.args.some((a) => a.type.toString().endsWith('!') && a.defaultValue === undefined))
        throw new Error(`${this.tool}: ${key} has a required argument; exclude it or give the argument a default`);
      const flatten = this.flattened.has(key);
      if (flatten) this.#used.add(key);
      const selectionSet = this.selectionOf(getNamedType(field.type), path);
      selections.push({
        kind: Kind.FIELD,
        name: name(field.name),
        ...(flatten ? { directives: [FLATTEN_MARK] } : {}),
        ...(selectionSet ? { selectionSet } : {}),
      });
    }
    if (selections.length === 0) throw new Error(`${this.tool}: every field of ${type.name} is excluded`);
    return { kind: Kind.SELECTION_SET, selections };
  }

  /** Table entries that named no field of the document: a renamed or removed field, or a wrong tool. */
  unused(): string[] {
    return [...this.flattened, ...this.excluded].filter((key) => !this.#used.has(key));
  }
}

function variableOf(
  check: Pick<CheckDeclaration, 'tool' | 'field'>,
  field: GraphQLField<unknown, unknown>,
  parameter: string,
) {
  const argument = field.args.find((a) => a.name === parameter);
  if (!argument) throw new Error(`${check.tool}: REST parameter ${parameter} is no argument of Query.${check.field}`);
  return {
    kind: Kind.VARIABLE_DEFINITION,
    variable: { kind: Kind.VARIABLE, name: name(parameter) },
    type: parseType(String(argument.type as GraphQLType)),
  } as VariableDefinitionNode;
}

/** What a document marks `@flatten` and leaves out, as `Type.field`; by default its check's declaration's. */
export interface DocumentMarks {
  readonly flattened: readonly string[];
  readonly excluded: readonly string[];
}

/** The REST document of one check, as text. */
export function restDocumentOf(
  check: Pick<CheckDeclaration, 'tool' | 'field' | 'rest' | 'flatten' | 'restLeavesOut'>,
  schema: GraphQLSchema,
  marks: DocumentMarks = {
    flattened: check.flatten?.() ?? [],
    excluded: Object.keys(check.restLeavesOut ?? {}),
  },
): string {
  const field = schema.getQueryType()?.getFields()[check.field];
  if (!field) throw new Error(`${check.tool}: no Query field ${check.field}`);
  const writer = new DocumentWriter(check.tool, new Set(marks.flattened), new Set(marks.excluded));
  const selectionSet = writer.selectionOf(getNamedType(field.type), []);
  const unused = writer.unused();
  if (unused.length > 0)
    throw new Error(
      `${check.tool}: its flatten or restLeavesOut names fields it does not select: ${unused.join(', ')}`,
    );
  const operation: OperationDefinitionNode = {
    kind: Kind.OPERATION_DEFINITION,
    operation: OperationTypeNode.QUERY,
    name: name(operationNameOf(check.tool)),
    variableDefinitions: Object.keys(check.rest).map((parameter) => variableOf(check, field, parameter)),
    selectionSet: {
      kind: Kind.SELECTION_SET,
      selections: [{ kind: Kind.FIELD, name: name(check.field), ...argumentsOf(check), selectionSet }],
    },
  };
  const header = [
    `# GET /api/v1/${check.tool}. Generated by \`npm run rest:documents\` (scripts/rest-documents/generate.ts)`,
    `# from the type of Query.${check.field} and the REST parameters of its definition: do not edit.`,
  ];
  return `${header.join('\n')}\n${print({ kind: Kind.DOCUMENT, definitions: [operation] })}\n`;
}

/** The check field's arguments, each fed by the REST parameter of its name. */
function argumentsOf(check: Pick<CheckDeclaration, 'rest'>): Pick<FieldNode, 'arguments'> {
  const parameters = Object.keys(check.rest);
  if (parameters.length === 0) return {};
  return {
    arguments: parameters.map((parameter) => ({
      kind: Kind.ARGUMENT,
      name: name(parameter),
      value: { kind: Kind.VARIABLE, name: name(parameter) },
    })),
  };
}

/** Every check's REST document. */
export function generateRestDocuments(): GeneratedDocument[] {
  const schema = declaredSchema();
  return allChecks().map((check) => ({
    path: `${DOCUMENTS_DIR}/${check.tool}.graphql`,
    text: restDocumentOf(check, schema),
  }));
}

/** Documents in schema/rest/ that no check writes (a check renamed or removed). */
export function orphanDocuments(documents: readonly GeneratedDocument[]): string[] {
  const written = new Set(documents.map((d) => d.path));
  return readdirSync(join(ROOT, DOCUMENTS_DIR))
    .filter((f) => f.endsWith('.graphql'))
    .map((f) => `${DOCUMENTS_DIR}/${f}`)
    .filter((path) => !written.has(path));
}
