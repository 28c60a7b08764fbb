/**
 * The OpenAPI 3.1 document of the v1 REST API, generated — never hand-kept — from the two sources of
 * truth: the REST route table (paths, the fixed GraphQL document behind each) and the GraphQL schema
 * (argument types, result types, descriptions). A route's `data` schema is exactly what its document
 * selects, so the document and the answer cannot drift apart.
 */
import { jobsOpenApi } from './jobs/jobs-openapi.js';
import { monitorsOpenApi } from './monitors/monitors-openapi.js';
import {
  GraphQLNonNull,
  Kind,
  getNamedType,
  getNullableType,
  isEnumType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isUnionType,
  type GraphQLField,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type TypeNode,
} from 'graphql';
import { readFileSync } from 'node:fs';
import { projectFile } from '../project-files.js';
import type { Config } from '../config.js';
import { CHECK_FAMILIES } from '../graphql/check-declaration.js';
import { costOf } from '../graphql/pricing.js';
import { API_VERSION } from './envelope.js';
import type { RestRoute } from './routes.js';

type JsonSchema = Record<string, unknown>;

interface RecordedExample {
  readonly query: Record<string, string>;
  readonly body: unknown;
}

/**
 * One answer per tool recorded from the integration tests against their loopback labs
 * (`npm run openapi:examples`), shown as the operation's example; the OpenAPI test checks each one
 * against the document.
 */
function recordedExamples(): Record<string, RecordedExample> {
  try {
    return JSON.parse(readFileSync(projectFile('data/openapi-examples.json'), 'utf8'));
  } catch {
    return {};
  }
}

const ERROR_STATUSES: Record<string, string> = {
  '400': 'Missing, repeated or invalid parameter; target refused (private or internal address).',
  '401': 'No API key, or an unknown or revoked one.',
  '429':
    'Credit allowance exhausted (Retry-After says when enough credits are free), or the key already has its most requests in flight at once (the message says which).',
  '500': 'A bug on our side; the message is generic.',
  '502': 'The check could not be done: an upstream refused, failed or answered garbage.',
  '503':
    'The service is overloaded (Retry-After says when to try again) or cannot charge credits right now (shared ledger unavailable; fails closed). Nothing is charged.',
  '504': 'The check ran out of time.',
};

const RATE_LIMIT_HEADERS = {
  'RateLimit-Policy': { description: 'IETF draft: "daily";q=<credits>;w=<window seconds>', schema: { type: 'string' } },
  RateLimit: {
    description: 'IETF draft: "daily";r=<credits left>;t=<seconds until the next credit frees>',
    schema: { type: 'string' },
  },
  'RateLimit-Limit': { schema: { type: 'integer' } },
  'RateLimit-Remaining': { schema: { type: 'integer' } },
  'RateLimit-Reset': { schema: { type: 'integer' } },
};

function meta(tool: string): JsonSchema {
  return {
    type: 'object',
    properties: { tool: { const: tool }, version: { const: API_VERSION } },
    required: ['tool', 'version'],
    additionalProperties: false,
  };
}

function scalarSchema(name: string): JsonSchema {
  switch (name) {
    case 'String':
    case 'ID':
      return { type: 'string' };
    case 'Int':
      return { type: 'integer' };
    case 'Float':
      return { type: 'number' };
    case 'Boolean':
      return { type: 'boolean' };
    default:
      return {}; // JSON: any value (open maps such as response headers)
  }
}

/** Adds null to a schema (OpenAPI 3.1 = JSON Schema 2020-12: type arrays, no `nullable`). */
function orNull(schema: JsonSchema): JsonSchema {
  if (Object.keys(schema).length === 0) return schema;
  if (typeof schema.type === 'string') {
    const out: JsonSchema = { ...schema, type: [schema.type, 'null'] };
    if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null];
    return out;
  }
  return { anyOf: [schema, { type: 'null' }] };
}

/** Where a walk is in the answer (response names from the root field's value, joined by "."), and the route's flattened fields so named. */
interface AnswerPlace {
  readonly path: string;
  readonly flattened: ReadonlySet<string>;
}

/** The JSON Schema of what `selection` answers of a value of `type`. */
function outputSchema(
  type: GraphQLOutputType,
  selection: SelectionSetNode | undefined,
  schema: GraphQLSchema,
  place: AnswerPlace,
): JsonSchema {
  // null only where GraphQL says a value can be absent: a non-null type is its inner type, not or-null
  if (!isNonNullType(type)) return orNull(outputSchema(new GraphQLNonNull(type), selection, schema, place));
  const value = type.ofType;
  if (isListType(value)) return { type: 'array', items: outputSchema(value.ofType, selection, schema, place) };
  if (isScalarType(value)) return scalarSchema(value.name);
  if (isEnumType(value)) return { type: 'string', enum: value.getValues().map((v) => v.value) };
  if (isUnionType(value) && selection) {
    // One branch per member the document selects with an inline fragment (`... on Member { … }`).
    const branches = selection.selections.flatMap((s) => {
      if (s.kind !== Kind.INLINE_FRAGMENT || !s.typeCondition) return [];
      const member = schema.getType(s.typeCondition.name.value);
      return member && isObjectType(member)
        ? [outputSchema(new GraphQLNonNull(member), s.selectionSet, schema, place)]
        : [];
    });
    return branches.length > 0 ? { anyOf: branches } : {};
  }
  if ((isObjectType(value) || isInterfaceType(value)) && selection) {
    const fields = value.getFields();
    const properties: Record<string, JsonSchema> = {};
    // a flattened field is what REST answers in place of this object (./flatten.ts)
    let flattened: JsonSchema | undefined;
    const visit = (set: SelectionSetNode) => {
      for (const s of set.selections) {
        if (s.kind === Kind.INLINE_FRAGMENT) visit(s.selectionSet);
        if (s.kind !== Kind.FIELD) continue;
        const field = fields[s.name.value] as GraphQLField<unknown, unknown> | undefined;
        if (!field) continue;
        const name = s.alias?.value ?? s.name.value;
        const path = place.path === '' ? name : `${place.path}.${name}`;
        const property = outputSchema(field.type, s.selectionSet, schema, { ...place, path });
        if (field.description) property.description = field.description;
        properties[name] = property;
        if (place.flattened.has(path)) flattened = property;
      }
    };
    visit(selection);
    return flattened ?? { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
  }
  return {};
}

function parameterSchema(type: TypeNode, variable: string): JsonSchema {
  const named = type.kind === Kind.NON_NULL_TYPE ? type.type : type;
  const name = named.kind === Kind.NAMED_TYPE ? named.name.value : 'String';
  if (name === 'Int' && variable === 'port') return { type: 'integer', minimum: 1, maximum: 65535 };
  return { ...scalarSchema(name), maxLength: name === 'String' ? 2048 : undefined };
}

export function buildOpenApiDocument(routes: Iterable<RestRoute>, schema: GraphQLSchema, config: Config): JsonSchema {
  const paths: Record<string, unknown> = {};
  const examples = recordedExamples();
  const resultSchemas: Record<string, JsonSchema> = {};
  const queryFields = schema.getQueryType()?.getFields() ?? {};
  for (const route of routes) {
    const operation = route.document.definitions.find(
      (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
    );
    const root = operation?.selectionSet.selections.find((s) => s.kind === Kind.FIELD);
    if (!operation || !root || root.kind !== Kind.FIELD) continue;
    const field = queryFields[root.name.value];
    if (!field) continue;
    const cost = costOf(config, route.tool);
    // A 200 always carries data (a check field that failed is an error answer instead), so the
    // nullable GraphQL field is a non-null result here; one named schema per result type.
    const result = outputSchema(new GraphQLNonNull(getNullableType(field.type)), root.selectionSet, schema, {
      path: '',
      flattened: new Set(route.flatten.map((path) => path.join('.'))),
    });
    // routes that share a result type and select the same fields share its schema (ip-info, asn-lookup)
    const typeName = getNamedType(field.type).name;
    const known = resultSchemas[typeName];
    const resultName =
      known === undefined || JSON.stringify(known) === JSON.stringify(result)
        ? typeName
        : `${typeName}_${route.tool.replace(/-/g, '_')}`;
    resultSchemas[resultName] = result;
    const data = { $ref: `#/components/schemas/${resultName}` };
    const example = examples[route.tool];
    const parameters = (operation.variableDefinitions ?? []).map((v) => ({
      name: v.variable.name.value,
      in: 'query',
      required: v.type.kind === Kind.NON_NULL_TYPE,
      schema: JSON.parse(JSON.stringify(parameterSchema(v.type, v.variable.name.value))),
      ...(field.args.find((a) => a.name === v.variable.name.value)?.description
        ? { description: field.args.find((a) => a.name === v.variable.name.value)!.description }
        : {}),
      ...(example?.query[v.variable.name.value] !== undefined ? { example: example.query[v.variable.name.value] } : {}),
    }));
    const errorResponses = Object.fromEntries(
      Object.entries(ERROR_STATUSES).map(([status, description]) => [
        status,
        {
          description,
          ...(status === '429'
            ? { headers: { ...RATE_LIMIT_HEADERS, 'Retry-After': { schema: { type: 'integer' } } } }
            : {}),
          content: { 'application/json': { schema: { $ref: `#/components/schemas/${errorSchemaName(route.tool)}` } } },
        },
      ]),
    );
    paths[`/api/${API_VERSION}/${route.tool}`] = {
      get: {
        operationId: root.name.value,
        tags: [route.check.family],
        summary: `${route.tool} (${cost} credit${cost === 1 ? '' : 's'})`,
        description:
          `${field.description ?? ''}\n\nCosts ${cost} credit${cost === 1 ? '' : 's'}. GraphQL field: \`${root.name.value}\`.`.trim(),
        'x-credit-cost': cost,
        parameters,
        responses: {
          '200': {
            description: 'The check ran; findings are in data.',
            headers: RATE_LIMIT_HEADERS,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: { ok: { const: true }, data, meta: meta(route.tool) },
                  required: ['ok', 'data', 'meta'],
                  additionalProperties: false,
                },
                ...(example
                  ? { examples: { recorded: { summary: 'An answer recorded in the test lab', value: example.body } } }
                  : {}),
              },
            },
          },
          ...errorResponses,
        },
      },
    };
  }
  const errorSchemas = Object.fromEntries(
    [...new Set(Object.keys(paths).map((p) => p.split('/').pop()!))].map((tool) => [
      errorSchemaName(tool),
      {
        type: 'object',
        properties: { ok: { const: false }, error: { type: 'string' }, meta: meta(tool) },
        required: ['ok', 'error', 'meta'],
        additionalProperties: false,
      },
    ]),
  );
  // The job routes (POST, GET, DELETE under /api/v1/jobs) beside the GET tools (docs/jobs.md).
  const jobs = jobsOpenApi(config);
  // The monitor routes under /api/v1/monitors and the badges (docs/monitors.md).
  const monitors = monitorsOpenApi(config);
  return {
    openapi: '3.1.0',
    info: {
      title: 'netdiag',
      version: API_VERSION,
      description:
        'Network diagnostics API. Every response is the envelope { ok, data | error, meta: { tool, version } }. ' +
        `Each key has ${config.quota.credits} credits per rolling ${config.quota.windowSeconds} s window. ` +
        'The same checks are fields of the GraphQL API at /graphql.',
    },
    servers: [{ url: '/' }],
    tags: [
      ...Object.entries(CHECK_FAMILIES).map(([name, description]) => ({ name, description })),
      jobs.tag,
      monitors.tag,
    ],
    security: [{ ApiKeyHeader: [] }, { ApiKeyQuery: [] }],
    paths: { ...paths, ...jobs.paths, ...monitors.paths },
    components: {
      securitySchemes: {
        ApiKeyHeader: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        ApiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key' },
      },
      schemas: { ...resultSchemas, ...errorSchemas, ...jobs.schemas, ...monitors.schemas },
    },
  };
}

function errorSchemaName(tool: string): string {
  return `Error_${tool.replace(/-/g, '_')}`;
}
