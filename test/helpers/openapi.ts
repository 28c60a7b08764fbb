/**
 * Checks an actual REST answer against the generated OpenAPI document: the documented schema of
 * that path and status must accept the body (JSON Schema 2020-12, as OpenAPI 3.1 uses).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { buildOpenApiDocument } from '../../src/rest/openapi.js';
import { restRoutes } from '../../src/rest/routes.js';
import { schema } from '../../src/graphql-server/schema.js';
import { buildConfig } from '../../src/config.js';

let document: any;
let ajv: Ajv2020;

export function openApiDocument(): any {
  document ??= buildOpenApiDocument(restRoutes.values(), schema, buildConfig({}));
  return document;
}

/** Returns the validation errors (empty when the body matches the documented shape). */
export function openApiMismatches(tool: string, status: number, body: unknown): string[] {
  const doc = openApiDocument();
  ajv ??= new Ajv2020({ strict: false, allErrors: true });
  const response = doc.paths[`/api/v1/${tool}`]?.get?.responses?.[String(status)];
  if (!response) return [`no documented response ${status} for ${tool}`];
  const schemaOf = response.content['application/json'].schema;
  const resolved = schemaOf.$ref ? doc.components.schemas[schemaOf.$ref.split('/').pop()] : schemaOf;
  // named schemas are referenced as #/components/schemas/<name>: resolve them against the document's components
  const validate = ajv.compile({ ...resolved, components: doc.components });
  return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}
