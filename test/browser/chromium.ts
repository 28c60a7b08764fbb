/**
 * Debian's chromium driven by playwright-core, able to reach nothing but loopback: its host resolver maps
 * every name but 127.0.0.1 to "not found", every non-loopback request goes to a dead loopback proxy,
 * background services are off, and each context aborts (and records) any request that leaves the app's
 * origin. Also an app served on a real node:http socket on 127.0.0.1, as the browser tests need.
 */
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServerAdapter } from '@whatwg-node/server';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions } from 'playwright-core';
import type { App } from '../../src/app.js';

export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

export function launchLoopbackChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-default-apps',
      '--disable-sync',
      '--no-first-run',
      '--disable-domain-reliability',
      '--disable-client-side-phishing-detection',
      '--disable-breakpad',
      '--no-pings',
      '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
      // IP literals skip the host resolver: send anything not on loopback to a port where nothing listens
      // (Chrome never proxies loopback).
      '--proxy-server=http://127.0.0.1:9',
    ],
  });
}

/** A fresh profile whose requests may only go to `origin` (data: and blob: URLs stay inside the page). */
export async function loopbackContext(
  browser: Browser,
  origin: string,
  options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; elsewhere: string[] }> {
  const context = await browser.newContext(options);
  const elsewhere: string[] = [];
  await context.route(
    (url) => url.origin !== origin && (url.protocol === 'http:' || url.protocol === 'https:'),
    (route) => {
      elsewhere.push(route.request().url());
      return route.abort('blockedbyclient');
    },
  );
  return { context, elsewhere };
}

/** The app on a real socket on 127.0.0.1 (a free port), with the peer's address as the client's. */
export async function serveOnLoopback(app: App): Promise<{ server: Server; origin: string; close(): Promise<void> }> {
  const server = createServer(
    createServerAdapter<{ req: IncomingMessage }>((request, ctx) =>
      app.fetch(request, { peerAddress: ctx.req.socket.remoteAddress ?? null }),
    ),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
