/**
 * Threat: tying up every check slot without paying for anything, by opening connections that send a
 * GraphQL POST's headers and then its body a few bytes at a time. The body is read before admission,
 * within its own short bound (src/app.ts), so the slots stay free for checks and each slow sender is
 * answered 408 and closed. Over a real socket: the adapter's body stream is what a slow client holds.
 */
import net, { type AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer } from '../../src/http-server.js';
import { createTestApp, TEST_KEY, type TestApp } from '../helpers/app.js';
import { rr, startDnsLab, type DnsLab } from '../lab/dns-server.js';

const SLOW_CLIENTS = 200;
const SLOTS = 4;

let lab: DnsLab;
let t: TestApp;
let server: Server;
let port: number;

beforeAll(async () => {
  lab = await startDnsLab({
    authoritative: false,
    records: [rr.mx('mail.test', 10, 'mx.mail.test'), rr.a('mx.mail.test', '192.0.2.25')],
  });
  t = await createTestApp({
    dns: { system: [`127.0.0.1:${lab.port}`], timeoutMs: 2_000 },
    // a few slots and no queue: one slot held by a slow body would show as a 503 at once
    admission: { maxInFlight: SLOTS, maxQueued: 0, perKeyInFlight: SLOW_CLIENTS + 10 },
  });
  server = createHttpServer(t.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  if (server) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await t?.close();
  await lab?.close();
});

/** A POST /graphql whose headers promise 400 bytes of body, of which only a few are sent. */
function slowBody(): Promise<{ socket: net.Socket; answer: Promise<string> }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(
        `POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Api-Key: ${TEST_KEY}\r\nContent-Length: 400\r\n\r\n{"que`,
      );
      let text = '';
      const answer = new Promise<string>((done) => {
        socket.on('data', (d) => (text += d));
        socket.on('close', () => done(text));
      });
      resolve({ socket, answer });
    });
    socket.on('error', reject);
  });
}

describe('slow request bodies', () => {
  it('hold no check slot: a check beside 200 of them runs, and each is answered 408 and closed', async () => {
    const slow = await Promise.all(Array.from({ length: SLOW_CLIENTS }, slowBody));
    // Every slow request has reached the app and is waiting for its body.
    await new Promise((r) => setTimeout(r, 200));
    const check = await fetch(`http://127.0.0.1:${port}/api/v1/mx-lookup?domain=mail.test`, {
      headers: { 'x-api-key': TEST_KEY },
    });
    expect(check.status).toBe(200);
    expect((await check.json()).data.domain).toBe('mail.test');
    expect(t.services.admission.state().inFlight).toBe(0);
    const answers = await Promise.all(slow.map((s) => s.answer));
    for (const answer of answers) {
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(answer).toContain('"status":408');
    }
  }, 30_000);
});
