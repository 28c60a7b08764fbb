/**
 * The GraphQL face of monitors over a real socket (docs/monitors.md "GraphQL"): the same operations as
 * REST — createMonitor (same validation), monitor(id) with state, monitors, runMonitor, updateMonitor,
 * deleteMonitor, another key's monitor is null — and the monitorEvents subscription over SSE.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rr } from '../../lab/dns-server.js';
import { OTHER_KEY, readEvents, startJobsHarness, type JobsHarness } from '../jobs/jobs-harness.js';

let h: JobsHarness;

beforeAll(async () => {
  h = await startJobsHarness({ quota: { credits: 10_000 }, monitors: { minInterval: '1s' } }, 4);
});
afterAll(async () => {
  await h?.close();
});

async function gql(query: string, variables: Record<string, unknown> = {}, key?: string) {
  const response = await h.call('/graphql', { body: { query, variables }, ...(key ? { key } : {}) });
  return { status: response.status, body: await response.json() };
}

const FIELDS = 'id name checks targets every paused public runs lastRunAt nextRunAt secret links';

describe('monitors over GraphQL', () => {
  it('creates, reads, runs, updates and deletes as REST does; another key sees null', { timeout: 30_000 }, async () => {
    const refused = await gql('mutation($input: JSON!) { createMonitor(input: $input) { id } }', {
      input: { checks: ['mx-lookup'], targets: ['bad..name'], every: '1h' },
    });
    expect(refused.body.errors[0].message).toMatch(/^targets\[0\] \(mx-lookup\): /);
    expect(refused.body.errors[0].extensions.code).toBe('BAD_INPUT');

    h.lab.records.push(rr.mx('gql.test', 10, 'mx.gql.test', 0), rr.a('mx.gql.test', '192.0.2.30', 0));
    const created = await gql(`mutation($input: JSON!) { createMonitor(input: $input) { ${FIELDS} } }`, {
      input: { name: 'gql', checks: ['mx-lookup'], targets: ['gql.test'], every: '1h' },
    });
    expect(created.body.errors).toBeUndefined();
    const monitor = created.body.data.createMonitor;
    expect(monitor).toMatchObject({ name: 'gql', checks: ['mx-lookup'], targets: 1, every: '1h', paused: false });
    expect(monitor.secret).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const id = monitor.id;

    const read = async () =>
      (await gql('query($id: ID!) { monitor(id: $id) { runs state { target check status summary } } }', { id })).body
        .data.monitor;
    let state: any;
    for (let i = 0; i < 200; i++) {
      state = await read();
      if (state.runs >= 1 && state.state[0].status !== 'pending') break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(state.state).toEqual([
      { target: 'gql.test', check: 'mx-lookup', status: 'ok', summary: expect.any(String) },
    ]);
    expect((await gql('query($id: ID!) { monitor(id: $id) { id } }', { id }, OTHER_KEY)).body.data.monitor).toBeNull();
    expect(
      (await gql('{ monitors { monitors { id } nextCursor } }')).body.data.monitors.monitors.map((m: any) => m.id),
    ).toContain(id);

    // the subscription follows what comes next
    const subscription = await h.call('/graphql', {
      headers: { accept: 'text/event-stream' },
      body: {
        query: 'subscription($id: ID!) { monitorEvents(id: $id) { id kind check changes } }',
        variables: { id },
      },
    });
    expect(subscription.status).toBe(200);
    expect(subscription.headers.get('content-type')).toContain('text/event-stream');
    const streamed = readEvents(subscription, 1);
    await new Promise((r) => setTimeout(r, 100));

    h.lab.records = h.lab.records.filter((r) => r.name !== 'mx.gql.test');
    h.lab.records.push(rr.a('mx.gql.test', '192.0.2.31', 0));
    const ran = await gql('mutation($id: ID!) { runMonitor(id: $id) { id } }', { id });
    expect(ran.body.errors).toBeUndefined();
    const [event] = await streamed;
    expect(event!.data.data.monitorEvents).toMatchObject({ id: `${id}.1`, kind: 'changed', check: 'mx-lookup' });

    const updated = await gql('mutation($id: ID!) { updateMonitor(id: $id, input: { every: "2h" }) { every } }', {
      id,
    });
    expect(updated.body.data.updateMonitor.every).toBe('2h');
    const other = await gql('mutation($id: ID!) { deleteMonitor(id: $id) }', { id }, OTHER_KEY);
    expect(other.body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect((await gql('mutation($id: ID!) { deleteMonitor(id: $id) }', { id })).body.data.deleteMonitor).toBe(true);
    expect((await gql('query($id: ID!) { monitor(id: $id) { id } }', { id })).body.data.monitor).toBeNull();
  });
});
