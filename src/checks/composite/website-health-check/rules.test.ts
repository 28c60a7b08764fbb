/**
 * website-health-check's rules (rules.ts): each status of each check, at and around
 * every threshold, with the summaries that say what was found and what to do.
 */
import { describe, expect, it } from 'vitest';
import { isCloudflareChallenge } from './cloudflare.js';
import { detailsNotMeasured, WEBSITE_CHECK_IDS, WEBSITE_CHECK_LABELS } from './details.js';
import {
  COMPRESSION_MIN_BYTES,
  compressionFinding,
  dnsFinding,
  httpFinding,
  LATENCY_CRITICAL_MS,
  LATENCY_WARNING_MS,
  latencyBreakdown,
  latencyFinding,
  locationFinding,
  notRunFinding,
  organizationFinding,
  percentRemaining,
  pingFinding,
  portsFinding,
  protocolFinding,
  redirectLoopFindings,
  redirectsFinding,
  securityFinding,
  sslFailureFinding,
  sslFinding,
  type SiteResponse,
  type SslFacts,
} from './rules.js';
import { scoreSecurityHeaders, SECURITY_HEADERS } from '../../tls-http/http-headers/security-headers.js';
import type { PingStatistics } from '../../../probes/ping/parse.js';

const DAY = 86_400_000;

describe('checks and details', () => {
  it("lists the twelve ids of api-v1.md in order, then grades.md's two ratings, each with a label and not-measured details", () => {
    expect(WEBSITE_CHECK_IDS).toEqual([
      'dns',
      'location',
      'organization',
      'ping',
      'latency',
      'http',
      'redirects',
      'ssl',
      'security',
      'protocol',
      'compression',
      'ports',
    ]);
    for (const id of WEBSITE_CHECK_IDS) expect(WEBSITE_CHECK_LABELS[id]).toMatch(/\w/);
    expect(detailsNotMeasured('latency')).toEqual({ totalMs: null, breakdown: null, url: null });
    expect(detailsNotMeasured('ports')).toEqual({ ports: null });
  });

  it('a check that could not run says why and what to do', () => {
    expect(notRunFinding('ping', 'ping of 192.0.2.1 did not finish within 5000 ms.')).toEqual({
      status: 'error',
      error: 'ping of 192.0.2.1 did not finish within 5000 ms.',
      summary:
        'This check could not run (ping of 192.0.2.1 did not finish within 5000 ms); run the health check again, and if it persists, check that the site is reachable from the internet.',
      details: { avgRoundTripMs: null, packetLossPercent: null, sent: null, received: null },
    });
  });
});

describe('dns', () => {
  it('ok with both families, info with IPv4 only, warning with IPv6 only', () => {
    const both = dnsFinding([
      { address: '192.0.2.1', family: 4 },
      { address: '2001:db8::1', family: 6 },
    ]);
    expect(both).toEqual({
      status: 'ok',
      summary: 'The name resolves to 1 IPv4 address and 1 IPv6 address.',
      details: { ip: '192.0.2.1', ipv4: ['192.0.2.1'], ipv6: ['2001:db8::1'] },
    });
    const v4 = dnsFinding([
      { address: '192.0.2.1', family: 4 },
      { address: '192.0.2.2', family: 4 },
    ]);
    expect(v4.status).toBe('info');
    expect(v4.summary).toMatch(/^The name resolves to 2 IPv4 addresses and no IPv6 address; add an AAAA record/);
    const v6 = dnsFinding([{ address: '2001:db8::1', family: 6 }]);
    expect(v6).toMatchObject({ status: 'warning', details: { ip: '2001:db8::1', ipv4: [] } });
    expect(v6.summary).toMatch(/add an A record/);
  });
});

describe('location and organization', () => {
  const facts = {
    countryCode: 'DE',
    country: 'Germany',
    asn: 'AS24940',
    asName: 'Hetzner Online GmbH',
    asDomain: 'hetzner.com',
  };
  const none = { countryCode: '', country: '', asn: '', asName: '', asDomain: '' };

  it('ok when the IP data knows them, info when it does not', () => {
    expect(locationFinding('192.0.2.1', facts)).toEqual({
      status: 'ok',
      summary: 'The server at 192.0.2.1 is located in Germany (DE).',
      details: { countryCode: 'DE', country: 'Germany' },
    });
    expect(locationFinding('192.0.2.1', none)).toMatchObject({
      status: 'info',
      details: { countryCode: null, country: null },
    });
    expect(organizationFinding('192.0.2.1', facts)).toEqual({
      status: 'ok',
      summary: "The server's network is Hetzner Online GmbH (AS24940, hetzner.com).",
      details: { orgDomain: 'hetzner.com', asn: 'AS24940', asName: 'Hetzner Online GmbH' },
    });
    expect(organizationFinding('192.0.2.1', none)).toMatchObject({
      status: 'info',
      details: { orgDomain: null, asn: null, asName: null },
    });
  });

  it('orgDomain is null with the bundled data (no AS domain), never guessed from the AS name', () => {
    expect(organizationFinding('192.0.2.1', { ...facts, asName: 'GOOGLE', asDomain: '' }).details).toEqual({
      orgDomain: null,
      asn: 'AS24940',
      asName: 'GOOGLE',
    });
  });
});

describe('ping', () => {
  const stats = (sent: number, received: number, average: number | null): PingStatistics => ({
    sent,
    received,
    lost: sent - received,
    lossPercent: ((sent - received) / sent) * 100,
    min: average,
    max: average,
    average,
    errors: 0,
    duplicates: 0,
    status: received > 0 ? 'Online' : 'Offline',
    text: '',
  });

  it('ok without loss; info below 50 % loss; warning from 50 %; info with no reply (ICMP filtered)', () => {
    expect(pingFinding('192.0.2.1', stats(4, 4, 12.5))).toEqual({
      status: 'ok',
      summary: '4 of 4 pings answered, 12.5 ms on average.',
      details: { avgRoundTripMs: 12.5, packetLossPercent: 0, sent: 4, received: 4 },
    });
    expect(pingFinding('192.0.2.1', stats(4, 3, 10)).status).toBe('info');
    expect(pingFinding('192.0.2.1', stats(4, 2, 10))).toMatchObject({
      status: 'warning',
      summary: expect.stringContaining('50% packet loss'),
    });
    const silent = pingFinding('192.0.2.1', stats(4, 0, null));
    expect(silent).toMatchObject({ status: 'info', details: { avgRoundTripMs: null, packetLossPercent: 100 } });
    expect(silent.summary).toMatch(/answered none of 4 pings/);
  });
});

describe('latency', () => {
  const timing = (dnsMs: number, tcpMs: number, tlsMs: number, ttfbMs: number) => ({
    dnsMs,
    tcpMs,
    tlsMs,
    ttfbMs,
    totalMs: 99_999,
  });

  it('breaks one connection down and sums the parts', () => {
    expect(latencyBreakdown(timing(10.04, 20, 30, 40.06))).toEqual({
      dnsMs: 10,
      tcpMs: 20,
      tlsMs: 30,
      remainingMs: 40.1,
      totalMs: 100.1,
    });
  });

  it(`ok up to ${LATENCY_WARNING_MS} ms, warning up to ${LATENCY_CRITICAL_MS} ms, critical above; names the slowest phase`, () => {
    expect(latencyFinding('https://a.test/', timing(100, 100, 100, 500)).status).toBe('ok');
    const slow = latencyFinding('https://a.test/', timing(100, 100, 100, 501));
    expect(slow.status).toBe('warning');
    expect(slow.summary).toBe(
      'The first response took 801 ms, over 800 ms, mostly the server preparing its answer (DNS 100 ms, TCP 100 ms, TLS 100 ms, server 501 ms); speed up the server (caching, a lighter page).',
    );
    expect(latencyFinding('https://a.test/', timing(1500, 100, 100, 100)).status).toBe('warning');
    const worst = latencyFinding('https://a.test/', timing(1600, 100, 100, 1));
    expect(worst.status).toBe('critical');
    expect(worst.summary).toMatch(/over 1800 ms, mostly DNS resolution .*; use a faster DNS provider/);
    expect(worst.details.url).toBe('https://a.test/');
  });
});

describe('http', () => {
  const site = (over: Partial<SiteResponse> = {}): SiteResponse => ({
    url: 'https://a.test/',
    finalUrl: 'https://a.test/',
    statusCode: 200,
    statusText: 'OK',
    cloudflareBlocked: false,
    httpsRefused: false,
    redirectLimitReached: false,
    redirectNotFollowed: null,
    ...over,
  });

  it('ok for 2xx over https', () => {
    expect(httpFinding(site())).toEqual({
      status: 'ok',
      summary: 'The page answers 200 OK.',
      details: {
        statusCode: 200,
        statusText: 'OK',
        cloudflareBlocked: false,
        url: 'https://a.test/',
        finalUrl: 'https://a.test/',
        httpsRefused: false,
      },
    });
  });

  it('critical for 4xx and 5xx', () => {
    expect(httpFinding(site({ statusCode: 404, statusText: 'Not Found' }))).toMatchObject({
      status: 'critical',
      summary: expect.stringMatching(/^The page answers 404 Not Found/),
    });
    expect(httpFinding(site({ statusCode: 503, statusText: 'Service Unavailable' }))).toMatchObject({
      status: 'critical',
      summary: expect.stringMatching(/server error/),
    });
  });

  it('warning for a Cloudflare challenge, a dangling redirect, plain HTTP, and https refused', () => {
    expect(httpFinding(site({ statusCode: 403, cloudflareBlocked: true })).summary).toMatch(
      /^Cloudflare answered 403 OK with a challenge page/,
    );
    expect(httpFinding(site({ statusCode: 403, cloudflareBlocked: true })).status).toBe('warning');
    expect(httpFinding(site({ statusCode: 302, redirectLimitReached: true })).status).toBe('warning');
    expect(
      httpFinding(site({ statusCode: 301, redirectNotFollowed: { reason: 'unsupported-scheme', location: 'ftp://x' } }))
        .summary,
    ).toMatch(/ftp:\/\/x/);
    expect(httpFinding(site({ finalUrl: 'http://a.test/' }))).toMatchObject({
      status: 'warning',
      summary: expect.stringMatching(/redirect it to HTTPS/),
    });
    expect(httpFinding(site({ url: 'http://a.test/', finalUrl: 'http://a.test/', httpsRefused: true }))).toMatchObject({
      status: 'warning',
      summary: expect.stringMatching(/over plain HTTP only \(https:\/\/ refused the connection\)/),
    });
  });

  it('a redirect loop is critical for http and redirects', () => {
    const loop = redirectLoopFindings('redirect loop: https://a.test/a → https://a.test/b → https://a.test/a');
    expect(loop.http.status).toBe('critical');
    expect(loop.redirects).toMatchObject({ status: 'critical', details: { hops: null } });
    expect(loop.http.summary).toMatch(/^The page redirects in a loop \(redirect loop: .*\): browsers show an error/);
  });
});

describe('redirects', () => {
  const hop = (url: string, statusCode: number, location: string | null) => ({ url, statusCode, location });
  const none = { redirectLimitReached: false, redirectNotFollowed: false };

  it('ok without redirects and with one or two', () => {
    expect(redirectsFinding([hop('https://a.test/', 200, null)], 'https://a.test/', none)).toEqual({
      status: 'ok',
      summary: 'The page answers without redirects.',
      details: { hops: [], finalUrl: 'https://a.test/' },
    });
    const one = redirectsFinding(
      [hop('http://a.test/', 301, 'https://a.test/'), hop('https://a.test/', 200, null)],
      'https://a.test/',
      none,
    );
    expect(one).toMatchObject({
      status: 'ok',
      summary: '1 redirect leads to https://a.test/.',
      details: { hops: [{ url: 'http://a.test/', statusCode: 301, location: 'https://a.test/' }] },
    });
  });

  it('warning from three redirects, for a downgrade to http, at the limit, or for a Location that is no web address', () => {
    const three = [
      hop('https://a.test/', 301, 'https://a.test/1'),
      hop('https://a.test/1', 302, 'https://a.test/2'),
      hop('https://a.test/2', 302, 'https://a.test/3'),
      hop('https://a.test/3', 200, null),
    ];
    expect(redirectsFinding(three, 'https://a.test/3', none)).toMatchObject({
      status: 'warning',
      summary: expect.stringMatching(/^3 redirects before the page/),
    });
    expect(
      redirectsFinding(three.slice(0, 2).concat(hop('https://a.test/2', 200, null)), 'https://a.test/2', none).status,
    ).toBe('ok');
    const downgrade = [hop('https://a.test/', 301, 'http://a.test/x'), hop('http://a.test/x', 200, null)];
    expect(redirectsFinding(downgrade, 'http://a.test/x', none)).toMatchObject({
      status: 'warning',
      summary: expect.stringMatching(/leaves HTTPS for plain HTTP/),
    });
    expect(
      redirectsFinding(three, 'https://a.test/3', { redirectLimitReached: true, redirectNotFollowed: false }).status,
    ).toBe('warning');
    expect(
      redirectsFinding([hop('https://a.test/', 301, 'mailto:x@a.test')], 'https://a.test/', {
        redirectLimitReached: false,
        redirectNotFollowed: true,
      }).summary,
    ).toMatch(/mailto:x@a\.test/);
  });
});

describe('ssl', () => {
  const issued = Date.parse('2026-01-01T00:00:00.000Z');
  /** a 100-day certificate, `daysLeft` days before it expires */
  const facts = (daysLeft: number, over: Partial<SslFacts> = {}): SslFacts => ({
    domain: 'a.test',
    port: 443,
    certificateStatus: 'valid',
    validFrom: new Date(issued).toISOString(),
    expiryDate: new Date(issued + 100 * DAY).toISOString(),
    daysRemaining: Math.floor(daysLeft),
    tlsVersion: 'TLSv1.3',
    now: issued + (100 - daysLeft) * DAY,
    ...over,
  });

  it('computes the share of the validity period left', () => {
    expect(percentRemaining('2026-01-01T00:00:00Z', '2026-04-11T00:00:00Z', issued + 75 * DAY)).toBe(25);
    expect(percentRemaining('2026-01-01T00:00:00Z', '2026-04-11T00:00:00Z', issued + 200 * DAY)).toBe(0);
    expect(percentRemaining('2026-01-01T00:00:00Z', '2026-04-11T00:00:00Z', issued - DAY)).toBe(100);
  });

  it('ok with a valid certificate, plenty of time and TLS 1.3', () => {
    expect(sslFinding(facts(60))).toEqual({
      status: 'ok',
      summary: 'The certificate is valid for 60 days (60% of its validity period), over TLS 1.3 on port 443.',
      details: {
        daysRemaining: 60,
        percentRemaining: 60,
        certificateStatus: 'valid',
        tlsVersion: 'TLSv1.3',
        expiryDate: '2026-04-11T00:00:00.000Z',
        port: 443,
      },
    });
  });

  it('warning with fewer than 30 days AND under 25 % left; critical with fewer than 7 days AND under 10 %', () => {
    expect(sslFinding(facts(24.9))).toMatchObject({
      status: 'warning',
      summary: expect.stringMatching(/^The certificate expires in 24 days \(24\.9% .*renew it soon/),
    });
    expect(sslFinding(facts(25.5)).status).toBe('ok'); // 25.5 % left: not yet under 25 %
    expect(sslFinding(facts(6.9))).toMatchObject({
      status: 'critical',
      summary: expect.stringMatching(/expires in 6 days .*renew it now/),
    });
    // a six-day certificate with two days left has a third of its life ahead: not flagged
    const shortLived = {
      validFrom: new Date(issued).toISOString(),
      expiryDate: new Date(issued + 6 * DAY).toISOString(),
      daysRemaining: 2,
      now: issued + 4 * DAY,
    };
    expect(sslFinding({ ...facts(2), ...shortLived }).status).toBe('ok');
    expect(sslFinding({ ...facts(0.5), ...shortLived, daysRemaining: 0, now: issued + 5.5 * DAY }).status).toBe(
      'critical',
    );
  });

  it('warning for TLS 1.2; the findings at the worst level share the summary', () => {
    expect(sslFinding(facts(60, { tlsVersion: 'TLSv1.2' }))).toMatchObject({
      status: 'warning',
      summary: 'TLS 1.2 is the newest version the server offers; enable TLS 1.3 (RFC 8446).',
    });
    expect(sslFinding(facts(20, { tlsVersion: 'TLSv1.2' })).summary).toMatch(
      /^The certificate expires in 20 days .*; TLS 1\.2 is the newest version .*\.$/,
    );
    expect(sslFinding(facts(3, { tlsVersion: 'TLSv1.2' })).summary).not.toMatch(/TLS 1\.2/);
  });

  it('critical for every certificate problem', () => {
    expect(sslFinding(facts(-3, { certificateStatus: 'expired' }))).toMatchObject({
      status: 'critical',
      summary: expect.stringMatching(/^The certificate expired on 2026-04-11/),
    });
    expect(sslFinding(facts(60, { certificateStatus: 'hostname-mismatch' })).summary).toMatch(/not issued for a\.test/);
    expect(sslFinding(facts(60, { certificateStatus: 'untrusted' })).summary).toMatch(
      /does not chain to a trusted root/,
    );
    expect(sslFinding(facts(60, { certificateStatus: 'not-yet-valid' })).summary).toMatch(/not valid until 2026-01-01/);
  });

  it('a refused port, an old-only server and another TLS failure are critical; a time-out or reset is no finding', () => {
    expect(sslFailureFinding({ kind: 'REFUSED', reason: 'ECONNREFUSED', message: 'refused' }, 443)).toMatchObject({
      status: 'critical',
      summary: expect.stringMatching(/^Port 443 refused the connection, so the site has no HTTPS/),
      details: { port: 443, daysRemaining: null },
    });
    expect(
      sslFailureFinding({ kind: 'TLS', reason: 'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION', message: 'x' }, 443)?.summary,
    ).toMatch(/no TLS version of 1\.2 or newer/);
    expect(
      sslFailureFinding(
        {
          kind: 'TLS',
          reason: 'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE',
          message: 'TLS handshake with 192.0.2.1:443 failed: boom',
        },
        443,
      )?.summary,
    ).toMatch(/^The TLS handshake on port 443 fails \(TLS handshake with 192\.0\.2\.1:443 failed: boom\)/);
    expect(sslFailureFinding({ kind: 'TIMEOUT', reason: null, message: 'x' }, 443)).toBeNull();
    expect(sslFailureFinding({ kind: 'UNREACHABLE', reason: 'ECONNRESET', message: 'x' }, 443)).toBeNull();
  });
});

describe('security headers', () => {
  const withHeaders = (names: readonly string[]) =>
    scoreSecurityHeaders(Object.fromEntries(names.map((n) => [n, 'x'])), 'https://a.test/');

  it('ok with all five, info with one missing, warning with two or more missing', () => {
    expect(securityFinding(withHeaders(SECURITY_HEADERS))).toEqual({
      status: 'ok',
      summary: 'All 5 security headers are set.',
      details: { present: 5, total: 5, missing: [] },
    });
    expect(securityFinding(withHeaders(SECURITY_HEADERS.slice(0, 4)))).toEqual({
      status: 'info',
      summary: '4 of 5 security headers are set; consider adding content-security-policy.',
      details: { present: 4, total: 5, missing: ['content-security-policy'] },
    });
    expect(securityFinding(withHeaders(['x-content-type-options']))).toMatchObject({
      status: 'warning',
      summary:
        'Only 1 of 5 security headers are set; add strict-transport-security, x-frame-options, referrer-policy and content-security-policy.',
    });
  });
});

describe('protocol', () => {
  it('ok for HTTP/2, warning for HTTP/1.1 with advice by scheme', () => {
    expect(protocolFinding('2', 'https://a.test/')).toEqual({
      status: 'ok',
      summary: 'The page is served over HTTP/2.',
      details: { protocol: 'HTTP/2' },
    });
    expect(protocolFinding('1.1', 'https://a.test/')).toMatchObject({
      status: 'warning',
      summary: expect.stringMatching(/enable HTTP\/2/),
      details: { protocol: 'HTTP/1.1' },
    });
    expect(protocolFinding('1.1', 'http://a.test/').summary).toMatch(/serve it over HTTPS/);
  });
});

describe('compression', () => {
  it('ok for br and zstd, info for gzip, warning for uncompressed text', () => {
    expect(compressionFinding(200, { 'content-encoding': 'br', 'content-type': 'text/html; charset=utf-8' })).toEqual({
      status: 'ok',
      summary: 'The page is compressed (br).',
      details: { encoding: 'br', contentType: 'text/html', contentLength: null },
    });
    expect(compressionFinding(200, { 'content-encoding': 'zstd' }).status).toBe('ok');
    expect(compressionFinding(200, { 'content-encoding': 'gzip' })).toMatchObject({
      status: 'info',
      summary: expect.stringMatching(/Brotli/),
    });
    expect(compressionFinding(200, { 'content-type': 'text/html', 'content-length': '4096' })).toEqual({
      status: 'warning',
      summary: 'The page (text/html, 4096 bytes) is sent uncompressed; enable Brotli or gzip for text responses.',
      details: { encoding: 'none', contentType: 'text/html', contentLength: 4096 },
    });
    expect(compressionFinding(200, { 'content-encoding': 'identity' }).details.encoding).toBe('none');
  });

  it(`ok when there is nothing worth compressing: no body, a compressed type, under ${COMPRESSION_MIN_BYTES} bytes`, () => {
    expect(compressionFinding(204, {}).status).toBe('ok');
    expect(compressionFinding(200, { 'content-length': '0' }).status).toBe('ok');
    expect(compressionFinding(200, { 'content-type': 'image/png', 'content-length': '90000' }).summary).toMatch(
      /image\/png, which is compressed already/,
    );
    expect(compressionFinding(200, { 'content-type': 'image/svg+xml', 'content-length': '90000' }).status).toBe(
      'warning',
    );
    expect(
      compressionFinding(200, { 'content-type': 'text/html', 'content-length': String(COMPRESSION_MIN_BYTES - 1) })
        .status,
    ).toBe('ok');
    expect(
      compressionFinding(200, { 'content-type': 'text/html', 'content-length': String(COMPRESSION_MIN_BYTES) }).status,
    ).toBe('warning');
  });
});

describe('ports', () => {
  const web = { http: 80, https: 443 };
  const entries = (http: 'open' | 'closed' | 'filtered', https: 'open' | 'closed' | 'filtered') => [
    { port: 80, protocol: 'tcp' as const, status: http },
    { port: 443, protocol: 'tcp' as const, status: https },
  ];

  it('ok with both open; info with 80 closed; warning with 443 not open; critical with neither', () => {
    expect(portsFinding(entries('open', 'open'), web, null)).toEqual({
      status: 'ok',
      summary: 'Ports 80 and 443 are open.',
      details: { ports: entries('open', 'open') },
    });
    expect(portsFinding(entries('closed', 'open'), web, null)).toMatchObject({
      status: 'info',
      summary: expect.stringMatching(/^Port 80 is closed: addresses typed without https:\/\//),
    });
    expect(portsFinding(entries('open', 'filtered'), web, null)).toMatchObject({
      status: 'warning',
      summary: expect.stringMatching(/^Port 443 is filtered \(no answer in time\), so the site has no HTTPS/),
    });
    expect(portsFinding(entries('closed', 'closed'), web, null)).toMatchObject({
      status: 'critical',
      summary: expect.stringMatching(/^Neither web port is open/),
    });
  });

  it("critical when the target URL's own port is not open", () => {
    const ports = [...entries('open', 'open'), { port: 8443, protocol: 'tcp' as const, status: 'closed' as const }];
    expect(portsFinding(ports, web, 8443)).toMatchObject({
      status: 'critical',
      summary: expect.stringMatching(/^Port 8443 is closed, so visitors cannot reach the URL/),
    });
    expect(
      portsFinding(
        ports.map((p) => ({ ...p, status: 'open' as const })),
        web,
        8443,
      ).summary,
    ).toBe('Ports 80, 443 and 8443 are open.');
  });
});

describe('isCloudflareChallenge', () => {
  const head = (title: string) => Buffer.from(`<!DOCTYPE html><html lang="en-US"><head><title>${title}</title>`);

  it('recognises cf-mitigated: challenge on 403 and 503', () => {
    expect(isCloudflareChallenge(403, { 'cf-mitigated': 'challenge' }, null)).toBe(true);
    expect(isCloudflareChallenge(503, { 'cf-mitigated': 'Challenge' }, null)).toBe(true);
    expect(isCloudflareChallenge(200, { 'cf-mitigated': 'challenge' }, null)).toBe(false);
  });

  it('recognises the page markers only from a Cloudflare edge', () => {
    expect(isCloudflareChallenge(503, { server: 'cloudflare' }, head('Just a moment...'))).toBe(true);
    expect(isCloudflareChallenge(403, { 'cf-ray': '8a1b2c3d4e5f-FRA' }, head('Attention Required! | Cloudflare'))).toBe(
      true,
    );
    expect(isCloudflareChallenge(403, { server: 'nginx' }, head('Just a moment...'))).toBe(false);
    expect(isCloudflareChallenge(403, { server: 'cloudflare' }, head('Forbidden'))).toBe(false);
    expect(isCloudflareChallenge(403, { server: 'cloudflare' }, null)).toBe(false);
  });
});
