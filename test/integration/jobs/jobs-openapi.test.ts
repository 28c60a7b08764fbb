/** The OpenAPI description of the job endpoints: a valid OpenAPI 3.1 addition that the real answers match. */
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openApiDocument } from '../../helpers/openapi.js';
import { startJobsHarness, type JobsHarness } from './jobs-harness.js';

let h: JobsHarness;
beforeAll(async () => {
  h = await startJobsHarness({}, 5);
});
afterAll(async () => {
  await h.close();
});

/** The service's document, which holds the job routes beside the GET tools (src/rest/openapi.ts). */
function merged(): any {
  return openApiDocument();
}

it('is valid OpenAPI 3.1 with the job routes in it', async () => {
  expect(merged().paths['/api/v1/jobs'].post.operationId).toBe('submitJob');
  const result = await new Validator().validate(merged());
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
});

it('describes what the endpoints answer', async () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const doc = merged();
  ajv.addSchema({ $id: 'doc', components: doc.components });
  const check = (path: string, method: string, status: string, body: unknown) => {
    const schema = doc.paths[path][method].responses[status].content['application/json'].schema;
    const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components', '"doc#/components')));
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
  };
  const submitted = await h.call('/api/v1/jobs', { body: { tool: 'mx-lookup', targets: ['name1.test'] } });
  const accepted = await submitted.json();
  check('/api/v1/jobs', 'post', '202', accepted);
  await h.untilEnded(accepted.data.id);
  check('/api/v1/jobs/{id}', 'get', '200', await (await h.call(`/api/v1/jobs/${accepted.data.id}`)).json());
  check('/api/v1/jobs', 'get', '200', await (await h.call('/api/v1/jobs')).json());
  check('/api/v1/jobs/{id}', 'get', '404', await (await h.call('/api/v1/jobs/nope')).json());
});
