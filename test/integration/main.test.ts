/**
 * The real entry point, as `npm start` runs it (the compiled build under plain node, a real socket on loopback):
 * start, answer, log JSON lines, stop cleanly on SIGTERM; refuse to start on a bad config file.
 */
import { readdirSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_METRICS_PORT } from '../../src/config.js';
import { startService } from '../helpers/process.js';

/** One request line on a new connection (`Connection: close`): the status and the body as text. */
function rawRequest(address: string, requestLine: string): Promise<{ status: number; body: string }> {
  const [host, port] = [
    address.slice(0, address.lastIndexOf(':')),
    Number(address.slice(address.lastIndexOf(':') + 1)),
  ];
  return new Promise((resolve, reject) => {
    const socket = connect(port, host, () =>
      socket.write(`${requestLine}\r\nHost: host-field.test\r\nConnection: close\r\n\r\n`),
    );
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () =>
      resolve({ status: Number(text.split(' ')[1]), body: text.slice(text.indexOf('\r\n\r\n') + 4) }),
    );
  });
}

// Each case starts a real process: generous bounds for a loaded CI machine.
describe('npm start', { timeout: 60_000 }, () => {
  it('serves, logs one JSON line per request, and stops on SIGTERM', async () => {
    const s = startService({
      server: { host: '127.0.0.1', port: 0, trustedProxies: ['127.0.0.1/32'] },
      auth: { keys: ['smoke-key-123456'] },
    });
    const address = await s.listening;
    const base = `http://${address}`;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    // RFC 9112 §3.2.2: the absolute form of the target, on the primary's own answer and on a worker's
    expect((await rawRequest(address, 'GET http://target.test/healthz HTTP/1.1')).status).toBe(200);
    const index = await rawRequest(address, 'GET http://target.test/api/v1 HTTP/1.1');
    expect(index.status).toBe(200);
    expect(index.body).toContain('"tool":"v1"');
    const res = await fetch(`${base}/api/v1/my-ip?api_key=smoke-key-123456`, {
      headers: { 'x-forwarded-for': '93.184.216.34' },
    });
    expect(await res.json()).toEqual({
      ok: true,
      data: { ip: '93.184.216.34', version: 'IPv4' },
      meta: { tool: 'my-ip', version: 'v1' },
    });
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    const lines = s
      .output()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.find((l) => l.event === 'request' && l.tool === 'my-ip')).toMatchObject({
      status: 200,
      path: '/api/v1/my-ip?api_key=REDACTED',
    });
    expect(s.output()).not.toContain('smoke-key-123456');
    expect(
      lines.filter((l) => l.event === 'request' && l.path === '/healthz' && l.answeredBy === 'primary'),
    ).toHaveLength(2);
    expect(lines.find((l) => l.event === 'request' && l.path === '/api/v1')).toMatchObject({ status: 200, tool: 'v1' });
    expect(lines.at(-1).event).toBe('stopped');
    // a line for the person who started it, beside the JSON lines for machines
    expect(s.errors()).toContain(`netdiag: listening on http://${address}/ — the developer page`);
    expect(s.errors()).toMatch(/netdiag: metrics on http:\/\/127\.0\.0\.1:\d+\/metrics/);
  });

  it('carries in its build every check, the recorded OpenAPI examples and the bundled IP data', async () => {
    const s = startService({
      server: { host: '127.0.0.1', port: 0 },
      auth: { keys: ['smoke-key-123456'] },
    });
    try {
      const base = `http://${await s.listening}`;
      const openapi = (await (await fetch(`${base}/api/v1/openapi.json`)).json()) as {
        paths: Record<string, { get: { responses: Record<string, unknown> } }>;
      };
      const checks = Object.keys(openapi.paths).filter(
        (path) =>
          path !== '/api/v1/openapi.json' &&
          !path.startsWith('/api/v1/jobs') &&
          !path.startsWith('/api/v1/monitors') &&
          !path.startsWith('/badge/'),
      );
      // one per REST document (schema/rest/<tool>.graphql)
      expect(checks).toHaveLength(readdirSync(resolve(import.meta.dirname, '../../schema/rest')).length);
      // data/openapi-examples.json, read from the project root by the bundle as by the sources
      const withoutExample = checks.filter(
        (path) => !JSON.stringify(openapi.paths[path]!.get.responses['200']).includes('"recorded"'),
      );
      expect(withoutExample).toEqual([]);
      // the IP data file, built by the bundle's own builder process into this instance's data directory
      const res = await fetch(`${base}/api/v1/ip-info?target=8.8.8.8`, {
        headers: { 'x-api-key': 'smoke-key-123456' },
      });
      expect(((await res.json()) as { data: { asn: string } }).data.asn).toBe('AS15169');
    } finally {
      s.child.kill('SIGTERM');
      await s.exited;
    }
  });

  it('refuses to start on an unknown config key, naming its path', async () => {
    const s = startService({ server: { port: 0 }, dns: { resolvers: [] } });
    expect(await s.exited).toBe(78);
    expect(s.errors()).toContain('unknown key "dns.resolvers"');
  });

  it('refuses to start on an unreadable file the configuration names, without a stack trace', async () => {
    const s = startService({ server: { port: 0 }, rdap: { bootstrapFile: '/nonexistent/dns.json' } });
    expect(await s.exited).toBe(78);
    expect(s.errors()).toContain('/nonexistent/dns.json');
    expect(s.errors()).not.toMatch(/\n\s+at /);
  });

  it.each([1, 2])(
    'says which address is taken when the port is in use, and exits 1 without a stack trace (%i worker(s))',
    async (workers) => {
      const squatter = createServer();
      await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
      const { port } = squatter.address() as { port: number };
      try {
        const s = startService({ server: { host: '127.0.0.1', port, workers } });
        expect(await s.exited).toBe(1);
        expect(s.errors()).toContain(`cannot listen on 127.0.0.1:${port}: the address is already in use`);
        expect(s.errors()).not.toMatch(/\n\s+at /);
        expect(s.output()).not.toContain('worker_replaced');
      } finally {
        squatter.close();
      }
    },
  );

  it('exits 1 naming the address when the metrics port is in use, before forking a worker', async () => {
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    const { port } = squatter.address() as { port: number };
    try {
      const s = startService({ server: { host: '127.0.0.1', port: 0 }, metrics: { port } });
      expect(await s.exited).toBe(1);
      expect(s.errors()).toContain(`cannot listen on 127.0.0.1:${port}: the address is already in use`);
      expect(s.errors()).toContain('METRICS_PORT / metrics.host / metrics.port');
      expect(s.output()).not.toContain('"event":"ready"');
    } finally {
      squatter.close();
    }
  });

  it('starts a second instance on this host when only its PORT differs: the default metrics port gives way', async () => {
    // the first instance's metrics listener (in CI's namespace nothing else holds the port; outside it,
    // whoever holds it plays the first instance)
    const squatter = createServer();
    await new Promise<void>((resolve) => {
      squatter.once('error', () => resolve());
      squatter.listen(DEFAULT_METRICS_PORT, '127.0.0.1', resolve);
    });
    const s = startService({ server: { host: '127.0.0.1', port: 0 }, metrics: { port: DEFAULT_METRICS_PORT } });
    try {
      await s.listening;
      const metrics = await s.metricsListening;
      expect(metrics).not.toBe(`127.0.0.1:${DEFAULT_METRICS_PORT}`);
      expect((await fetch(`http://${metrics}/metrics`)).status).toBe(200);
      expect(s.errors()).toContain(
        `the metrics port ${DEFAULT_METRICS_PORT} is taken (another instance on this host?): metrics on port ${metrics.split(':')[1]} instead; set METRICS_PORT to choose the port`,
      );
    } finally {
      s.child.kill('SIGTERM');
      await s.exited;
      squatter.close();
    }
  });
});
