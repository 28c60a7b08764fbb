/**
 * The report's lab (docs/report.md): one domain every part of a report answers for, on loopback — a DNS lab
 * (the system resolver: the site's address, MX, SPF and DMARC), an HTTPS site and its plain-HTTP port (the
 * lab PKI, the security headers), an SMTP server offering STARTTLS, and a WHOIS server. `hold('site')` makes
 * the site (or WHOIS) wait until `release()`, so a test can watch a report while one check is still running;
 * `hostile` puts markup in a TXT record, the response's status line and Location header, and the registrar's
 * name.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IpDataSource } from '../../src/probes/ipdata/source.js';
import type { ServiceOverrides } from '../../src/create-services.js';
import { rr, startDnsLab, type DnsLab } from './dns-server.js';
import { SECURITY_HEADER_VALUES } from './http-server.js';
import { labPki, type LabPki } from './pki.js';
import { startSmtpServer, type LabSmtpServer } from './smtp-server.js';

export const REPORT_DOMAIN = 'report.lab.test';
/** the MX host: one label under lab.test, which the lab certificate's *.lab.test covers */
export const REPORT_MX = 'mx.lab.test';

/** Markup in every place a report shows upstream text; each sets window.__pwned if it ever ran. */
export const HOSTILE = {
  txt: `v=spf1 ip4:127.0.0.1 "><img src=x onerror="window.__pwned='txt'"><script>window.__pwned='txt-script'</script> -all`,
  reason: `OK "><img src=x onerror="window.__pwned='reason'">`,
  location: `/home?q="><img src=x onerror=window.__pwned='location'><script>window.__pwned='location-script'</script>`,
  registrar: `<script>window.__pwned='registrar'</script> Lab Registrar "><img src=x onerror=window.__pwned='registrar-img'>`,
} as const;

const DAY_MS = 86_400_000;

/** Where the lab's servers are: enough to point an app at a lab running in another process (bench/report.ts). */
export interface ReportLabAddresses {
  readonly domain: string;
  /** the site's HTTPS and HTTP ports */
  readonly https: number;
  readonly http: number;
  readonly whoisPort: number;
  readonly smtpPort: number;
  readonly dnsPort: number;
  /** the lab root's certificate (PEM) */
  readonly rootCert: string;
}

/** The configuration of an app or a command against the lab (targets on loopback allowed). */
export function reportLabConfig(lab: ReportLabAddresses): Record<string, any> {
  return {
    dns: { system: [`127.0.0.1:${lab.dnsPort}`], timeoutMs: 2000 },
    targets: { allow: ['127.0.0.0/8', '::1/128'] },
    whois: { server: '127.0.0.1', port: lab.whoisPort, timeoutMs: 5000 },
    dnsbl: { zones: [{ zone: 'bl.lab.test', name: 'Lab BL' }] },
    dkim: { selectors: ['default'] },
    http: { timeoutMs: 20_000 },
    smtp: { replyTimeoutMs: 3000, sessionTimeoutMs: 6000 },
  };
}

/** The seams of an in-process app: the lab root, the web and SMTP ports, stand-in ping (written into `dir`) and IP data. */
export function reportLabOverrides(lab: ReportLabAddresses, dir: string): ServiceOverrides {
  return {
    connections: { tlsCa: lab.rootCert, connectTimeoutMs: 2000, handshakeTimeoutMs: 2000 },
    webPorts: { http: lab.http, https: lab.https },
    smtpPort: lab.smtpPort,
    ipData: ipDataStandIn(),
    pingPath: pingStandIn(dir),
  };
}

export interface ReportLab extends ReportLabAddresses {
  readonly pki: LabPki;
  readonly dns: DnsLab;
  /** the configuration of an app or a command against this lab (targets on loopback allowed) */
  readonly config: Record<string, any>;
  /** the seams of an in-process app: the lab root, the web and SMTP ports, stand-in ping and IP data */
  readonly overrides: ServiceOverrides;
  /** the lab root's certificate as a file (NODE_EXTRA_CA_CERTS of a child process) */
  readonly rootFile: string;
  /** from now, the site (every HTTP answer) or the WHOIS server holds its answers until release() */
  hold(what: 'site' | 'whois'): void;
  release(): void;
  /** answers being held */
  held(): number;
  close(): Promise<void>;
}

function ipDataStandIn(): IpDataSource {
  return {
    async lookup(ip) {
      return {
        ip,
        source: 'database',
        asn: 'AS64500',
        asName: 'Lab Hosting GmbH',
        asDomain: 'hosting.example',
        countryCode: 'DE',
        country: 'Germany',
        continentCode: 'EU',
        continent: 'Europe',
        liveError: null,
      };
    },
  };
}

/** iputils' transcript of 4 answered pings, printed by a stand-in executable. */
function pingStandIn(dir: string): string {
  const replies = Array.from(
    { length: 4 },
    (_, i) => `64 bytes from 127.0.0.1: icmp_seq=${i + 1} ttl=64 time=0.050 ms\n`,
  );
  const path = join(dir, 'ping');
  writeFileSync(
    path,
    `#!/bin/sh\ncat <<'OUT'\nPING 127.0.0.1 (127.0.0.1) 56(84) bytes of data.\n${replies.join('')}\n--- 127.0.0.1 ping statistics ---\n4 packets transmitted, 4 received, 0% packet loss, time 3004ms\nrtt min/avg/max/mdev = 0.050/0.050/0.050/0.000 ms\nOUT\n`,
  );
  chmodSync(path, 0o755);
  return path;
}

function registryAnswer(queried: string, registrar: string): string {
  const expiry = new Date(Date.now() + 400 * DAY_MS).toISOString().replace(/\.\d+Z$/, 'Z');
  return [
    `   Domain Name: ${queried.toUpperCase()}`,
    '   Updated Date: 2024-08-14T07:01:34Z',
    '   Creation Date: 2001-02-03T04:05:06Z',
    `   Registry Expiry Date: ${expiry}`,
    `   Registrar: ${registrar}`,
    '   Name Server: NS1.LAB.TEST',
    '   Name Server: NS2.LAB.TEST',
    '>>> Last update of whois database: 2024-09-01T00:00:00Z <<<',
    '',
  ].join('\r\n');
}

/** Delays that make the lab answer as servers across the internet do (bench/report.ts). */
export interface LabLatency {
  readonly dnsMs?: number;
  readonly whoisMs?: number;
  /** each HTTP answer of the site */
  readonly httpMs?: number;
}

export async function startReportLab(options: { hostile?: boolean; latency?: LabLatency } = {}): Promise<ReportLab> {
  const hostile = options.hostile === true;
  const latency = options.latency ?? {};
  const pause = (ms = 0) => (ms > 0 ? new Promise<void>((resolve) => setTimeout(resolve, ms)) : Promise.resolve());
  const dir = mkdtempSync(join(tmpdir(), 'netdiag-report-lab-'));
  const pki = await labPki();
  const rootFile = join(dir, 'lab-root.pem');
  writeFileSync(rootFile, pki.root.cert);

  const holding = new Set<'site' | 'whois'>();
  let waiting: (() => void)[] = [];
  const gate = (what: 'site' | 'whois') =>
    holding.has(what) ? new Promise<void>((resolve) => waiting.push(resolve)) : Promise.resolve();

  const sockets = new Set<net.Socket>();
  const track = (server: net.Server) =>
    server.on('connection', (socket: net.Socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });

  // the site: HTTPS with the security headers; with `hostile`, a redirect whose Location carries markup and a
  // page whose status line does
  const site = https.createServer({ cert: pki.good.chain, key: pki.good.key }, (req, res) => {
    void Promise.all([gate('site'), pause(latency.httpMs)]).then(() => {
      if (hostile && req.url === '/') {
        res.writeHead(301, { location: HOSTILE.location, 'content-length': '0' });
        res.end();
        return;
      }
      const body = `<!doctype html><html lang="en"><head><title>Report lab</title></head><body>${'<p>report lab</p>'.repeat(50)}</body></html>`;
      res.writeHead(200, hostile ? HOSTILE.reason : 'OK', {
        ...SECURITY_HEADER_VALUES,
        'content-type': 'text/html; charset=utf-8',
        'content-length': String(Buffer.byteLength(body)),
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    });
  });
  site.on('tlsClientError', () => {});
  track(site);
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const httpsPort = (site.address() as AddressInfo).port;

  const plain = http.createServer((req, res) => {
    void Promise.all([gate('site'), pause(latency.httpMs)]).then(() => {
      res.writeHead(301, { location: `https://${REPORT_DOMAIN}:${httpsPort}${req.url ?? '/'}`, 'content-length': '0' });
      res.end();
    });
  });
  track(plain);
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
  const httpPort = (plain.address() as AddressInfo).port;

  // WHOIS (RFC 3912): the query line in, the registry's answer out
  const whois = net.createServer((socket) => {
    socket.on('error', () => {});
    let line = '';
    socket.on('data', (chunk) => {
      line += chunk.toString('latin1');
      if (!line.includes('\n')) return;
      const queried = line.trim();
      void Promise.all([gate('whois'), pause(latency.whoisMs)]).then(() =>
        socket.end(registryAnswer(queried, hostile ? HOSTILE.registrar : 'Lab Registrar Ltd')),
      );
    });
  });
  track(whois);
  await new Promise<void>((resolve) => whois.listen(0, '127.0.0.1', resolve));
  const whoisPort = (whois.address() as AddressInfo).port;

  const smtp: LabSmtpServer = await startSmtpServer({
    behaviour: 'starttls',
    tls: { cert: pki.good.chain, key: pki.good.key },
    name: REPORT_MX,
  });

  const dns = await startDnsLab({
    authoritative: false,
    ...(latency.dnsMs ? { delayMs: latency.dnsMs } : {}),
    records: [
      rr.a(REPORT_DOMAIN, '127.0.0.1'),
      rr.mx(REPORT_DOMAIN, 10, REPORT_MX),
      rr.a(REPORT_MX, '127.0.0.1'),
      rr.txt(REPORT_DOMAIN, hostile ? HOSTILE.txt : 'v=spf1 ip4:127.0.0.1 -all'),
      rr.txt(`_dmarc.${REPORT_DOMAIN}`, 'v=DMARC1; p=reject; rua=mailto:dmarc@report.lab.test'),
      rr.txt(
        `default._domainkey.${REPORT_DOMAIN}`,
        'v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAwXa',
      ),
    ],
  });

  const addresses: ReportLabAddresses = {
    domain: REPORT_DOMAIN,
    https: httpsPort,
    http: httpPort,
    whoisPort,
    smtpPort: smtp.port,
    dnsPort: dns.port,
    rootCert: pki.root.cert,
  };

  return {
    ...addresses,
    pki,
    dns,
    config: reportLabConfig(addresses),
    overrides: reportLabOverrides(addresses, dir),
    rootFile,
    hold: (what) => {
      holding.add(what);
    },
    release: () => {
      holding.clear();
      const released = waiting;
      waiting = [];
      for (const go of released) go();
    },
    held: () => waiting.length,
    async close() {
      holding.clear();
      for (const go of waiting) go();
      for (const socket of sockets) socket.destroy();
      await Promise.all([
        new Promise((resolve) => site.close(resolve)),
        new Promise((resolve) => plain.close(resolve)),
        new Promise((resolve) => whois.close(resolve)),
        smtp.close(),
        dns.close(),
      ]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
