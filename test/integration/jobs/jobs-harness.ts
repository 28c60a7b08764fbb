/**
 * An in-process service on a real loopback socket for the job tests, with the DNS lab as its resolver:
 * `name<N>.test` has an MX and an address; `slow<N>.test` answers after `SLOW_MS`.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { AppOptions } from '../../../src/app.js';
import type { ServiceOverrides } from '../../../src/create-services.js';
import { createHttpServer } from '../../../src/http-server.js';
import { createTestApp, TEST_KEY, type TestApp } from '../../helpers/app.js';
import { rr, startDnsLab, type DnsLab } from '../../lab/dns-server.js';

export const OTHER_KEY = 'other-key-0123456789';
export const SLOW_MS = 400;

export interface JobsHarness {
  t: TestApp;
  lab: DnsLab;
  base: string;
  call(
    path: string,
    init?: { method?: string; key?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<Response>;
  /** polls GET until the job has ended (finishedAt: a cancelled job's running items have finished too) */
  untilEnded(id: string, key?: string): Promise<any>;
  close(): Promise<void>;
}

export function labRecords(count: number) {
  // the callback tests' https server (test/lab/pki.ts names it good.lab.test)
  const records = [rr.a('good.lab.test', '127.0.0.1')];
  for (let i = 0; i < count; i++) {
    records.push(rr.mx(`name${i}.test`, 10, `mx.name${i}.test`), rr.a(`mx.name${i}.test`, `192.0.2.${(i % 250) + 1}`));
    records.push(rr.mx(`slow${i}.test`, 10, `mx.slow${i}.test`), rr.a(`mx.slow${i}.test`, '192.0.2.1'));
  }
  return records;
}

export async function startJobsHarness(
  config: Record<string, any> = {},
  names = 50,
  overrides: ServiceOverrides = {},
  appOptions: AppOptions = {},
): Promise<JobsHarness> {
  const lab = await startDnsLab({ authoritative: false, records: labRecords(names) });
  lab.setBehaviour(/^(mx\.)?slow\d+\.test$/, { delayMs: SLOW_MS });
  const t = await createTestApp(
    {
      ...config,
      auth: { keys: [TEST_KEY, OTHER_KEY] },
      dns: { system: [`127.0.0.1:${lab.port}`], timeoutMs: 5000 },
    },
    overrides,
    appOptions,
  );
  const server: Server = createHttpServer(t.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const call: JobsHarness['call'] = (path, init = {}) => {
    const headers: Record<string, string> = { 'x-api-key': init.key ?? TEST_KEY, ...init.headers };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    return fetch(`${base}${path}`, {
      method: init.method ?? (init.body !== undefined ? 'POST' : 'GET'),
      headers,
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    });
  };
  return {
    t,
    lab,
    base,
    call,
    async untilEnded(id, key) {
      for (let i = 0; i < 400; i++) {
        const body = await (await call(`/api/v1/jobs/${id}`, key ? { key } : {})).json();
        if (body.data.finishedAt !== null) return body.data;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`job ${id} did not end`);
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await t.app.stopBackground();
      await t.close();
      await lab.close();
    },
  };
}

/** Reads an SSE body into events until it ends (or `max` events). */
export async function readEvents(response: Response, max = 1000): Promise<{ event: string; id: string; data: any }[]> {
  const events: { event: string; id: string; data: any }[] = [];
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += value;
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf('\n\n');
      if (block.startsWith(':')) continue;
      const fields: Record<string, string> = Object.fromEntries(
        block.split('\n').map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]),
      );
      events.push({ event: fields.event ?? '', id: fields.id ?? '', data: JSON.parse(fields.data ?? 'null') });
      if (events.length >= max) {
        await reader.cancel();
        return events;
      }
    }
  }
  return events;
}
