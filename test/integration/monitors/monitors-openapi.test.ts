/** The OpenAPI description of the monitor endpoints: a valid OpenAPI 3.1 addition that the real answers match. */
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openApiDocument } from '../../helpers/openapi.js';
import { startJobsHarness, type JobsHarness } from '../jobs/jobs-harness.js';

let h: JobsHarness;
beforeAll(async () => {
  h = await startJobsHarness({ monitors: { minInterval: '1s' } }, 5);
});
afterAll(async () => {
  await h?.close();
});

it('is valid OpenAPI 3.1 with the monitor routes in it', async () => {
  const doc = openApiDocument();
  expect(doc.paths['/api/v1/monitors'].post.operationId).toBe('createMonitor');
  const result = await new Validator().validate(doc);
  expect(result.errors ?? []).toEqual([]);
});

it('describes what the endpoints answer', async () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const doc = openApiDocument();
  ajv.addSchema({ $id: 'doc', components: doc.components });
  const check = (path: string, method: string, status: string, body: unknown) => {
    const schema = doc.paths[path][method].responses[status].content['application/json'].schema;
    const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components', '"doc#/components')));
    expect(validate(body), `${method} ${path} ${status}: ${JSON.stringify(validate.errors)}`).toBe(true);
  };
  const created = await (
    await h.call('/api/v1/monitors', { body: { checks: ['mx-lookup'], targets: ['name1.test'], every: '1h' } })
  ).json();
  check('/api/v1/monitors', 'post', '201', created);
  const id = created.data.id;
  const path = `/api/v1/monitors/${id}`;
  let monitor: any;
  for (let i = 0; i < 200; i++) {
    monitor = await (await h.call(path)).json();
    if (monitor.data.runs >= 1 && monitor.data.state[0].lastRunAt !== null) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  check('/api/v1/monitors/{id}', 'get', '200', monitor);
  check('/api/v1/monitors', 'get', '200', await (await h.call('/api/v1/monitors')).json());
  check('/api/v1/monitors/{id}/history', 'get', '200', await (await h.call(`${path}/history`)).json());
  check('/api/v1/monitors/{id}/events', 'get', '200', await (await h.call(`${path}/events`)).json());
  check(
    '/api/v1/monitors/{id}',
    'patch',
    '200',
    await (await h.call(path, { method: 'PATCH', body: { public: true } })).json(),
  );
  check('/api/v1/monitors/{id}/run', 'post', '202', await (await h.call(`${path}/run`, { method: 'POST' })).json());
  check('/api/v1/monitors/{id}', 'get', '404', await (await h.call('/api/v1/monitors/mon_unknown')).json());
  check(
    '/api/v1/monitors',
    'post',
    '400',
    await (await h.call('/api/v1/monitors', { body: { checks: [], targets: [], every: '1h' } })).json(),
  );
});
