import { describe, expect, it } from 'vitest';
import { evaluateSecurityTxt, parseSecurityTxt, SECURITY_TXT_MAX_BYTES, type SecurityTxtFetch } from './rules.js';

const NOW = Date.parse('2026-11-28T12:00:00Z');
const URL_HTTPS = 'https://example.test/.well-known/security.txt';
const URL_HTTP = 'http://example.test/.well-known/security.txt';

const FULL = [
  '# Our security address',
  'Contact: mailto:security@example.test',
  'Contact: https://example.test/report',
  'Expires: 2027-05-01T00:00:00.000Z',
  'Encryption: https://example.test/pgp-key.txt',
  'Acknowledgments: https://example.test/hall-of-fame',
  'Preferred-Languages: en, fr ,de',
  'Canonical: https://example.test/.well-known/security.txt',
  'Policy: https://example.test/policy',
  'Hiring: https://example.test/jobs',
  'CSAF: https://example.test/.well-known/csaf/provider-metadata.json',
  'X-Bug-Bounty: yes',
  '',
].join('\r\n');

const SIGNED = [
  '-----BEGIN PGP SIGNED MESSAGE-----',
  'Hash: SHA512',
  '',
  'Contact: mailto:security@example.test',
  'Expires: 2027-05-01T00:00:00Z',
  '- -----not a framing line, dash-escaped',
  '-----BEGIN PGP SIGNATURE-----',
  '',
  'iHUEARYKAB0WIQ==',
  '=abcd',
  '-----END PGP SIGNATURE-----',
].join('\n');

function served(body: string | null, over: Partial<SecurityTxtFetch> = {}): SecurityTxtFetch {
  return {
    url: URL_HTTPS,
    finalUrl: URL_HTTPS,
    status: body === null ? 404 : 200,
    contentType: 'text/plain; charset=utf-8',
    body,
    truncated: false,
    error: null,
    ...over,
  };
}

const codes = (r: { findings: { code: string }[] }) => r.findings.map((f) => f.code);

describe('parseSecurityTxt', () => {
  it('reads every field of RFC 9116 §2.5, CSAF and an extension field, case-insensitively, in file order', () => {
    const parsed = parseSecurityTxt(FULL.replace('Policy:', 'POLICY:'));
    expect(parsed).toEqual({
      signed: false,
      contact: ['mailto:security@example.test', 'https://example.test/report'],
      expires: '2027-05-01T00:00:00.000Z',
      encryption: ['https://example.test/pgp-key.txt'],
      acknowledgments: ['https://example.test/hall-of-fame'],
      policy: ['https://example.test/policy'],
      preferredLanguages: ['en', 'fr', 'de'],
      canonical: ['https://example.test/.well-known/security.txt'],
      hiring: ['https://example.test/jobs'],
      csaf: ['https://example.test/.well-known/csaf/provider-metadata.json'],
      otherFields: [{ name: 'X-Bug-Bounty', value: 'yes' }],
      malformedLines: [],
      moreMalformedLines: 0,
      omittedValues: 0,
      problems: [],
    });
  });

  it('reads the signed text of an OpenPGP cleartext signature, dash-escaping undone', () => {
    const parsed = parseSecurityTxt(SIGNED);
    expect(parsed.signed).toBe(true);
    expect(parsed.contact).toEqual(['mailto:security@example.test']);
    expect(parsed.expires).toBe('2027-05-01T00:00:00Z');
    // the armor header (Hash:) and the signature's lines are not fields
    expect(parsed.otherFields).toEqual([]);
    expect(parsed.malformedLines).toEqual([
      { line: 6, text: '-----not a framing line, dash-escaped', reason: 'not a field ("Name: value") nor a comment' },
    ]);
    expect(parsed.problems).toEqual([]);
  });

  it('a signed message without its signature block is a problem', () => {
    const parsed = parseSecurityTxt(SIGNED.split('-----BEGIN PGP SIGNATURE-----')[0]!);
    expect(parsed.signed).toBe(true);
    expect(parsed.problems).toEqual(['the signed message has no BEGIN PGP SIGNATURE block']);
    expect(parseSecurityTxt(SIGNED.replace('-----END PGP SIGNATURE-----', '')).problems).toEqual([
      'the signature block has no END PGP SIGNATURE line',
    ]);
  });

  it('names what breaks the grammar: http web URIs, dates, languages, empty values, repeated Expires', () => {
    const parsed = parseSecurityTxt(
      [
        'Contact: http://example.test/report',
        'Contact: not a uri',
        'Expires: tomorrow',
        'Expires: 2027-01-01T00:00:00Z',
        'Expires: 2027-02-01T00:00:00+01:00',
        'Preferred-Languages: en; fr',
        'Policy:',
        'just words',
      ].join('\n'),
    );
    expect(parsed.contact).toEqual([]);
    expect(parsed.expires).toBe('2027-01-01T00:00:00Z');
    expect(parsed.malformedLines.map((l) => [l.line, l.reason])).toEqual([
      [1, 'contact is a web URI that does not begin with https://'],
      [2, 'contact is not a URI'],
      [3, 'Expires is not an RFC 3339 date-time (such as 2027-01-31T23:00:00Z)'],
      [6, 'Preferred-Languages is not a comma-separated list of language tags (RFC 5646)'],
      [7, 'the Policy field has no value'],
      [8, 'not a field ("Name: value") nor a comment'],
    ]);
    expect(parsed.problems).toEqual(['Expires appears 2 times; it must appear once']);
  });

  it('hostile: a huge line is malformed and not kept, many fields are capped, markup is not fields', () => {
    const huge = parseSecurityTxt(
      `Contact: https://example.test/${'a'.repeat(30_000)}\nContact: mailto:a@example.test\n`,
    );
    expect(huge.contact).toEqual(['mailto:a@example.test']);
    expect(huge.malformedLines).toEqual([
      {
        line: 1,
        text: `Contact: https://example.test/${'a'.repeat(70)}`,
        reason: 'the line is longer than 2048 characters',
      },
    ]);

    const many = parseSecurityTxt(
      Array.from({ length: 1000 }, (_, i) => `Contact: mailto:s${i}@example.test\nX-Field-${i}: ${i}`).join('\n'),
    );
    expect(many.contact).toHaveLength(32);
    expect(many.otherFields).toHaveLength(32);
    expect(many.omittedValues).toBe(2 * 1000 - 64);

    const page = parseSecurityTxt(
      '<!doctype html>\n<html><head><title>Not found</title></head>\n<body><a href="x">home</a></body></html>\n'.repeat(
        50,
      ),
    );
    expect(page.contact).toEqual([]);
    expect(page.otherFields).toEqual([]);
    expect(page.malformedLines).toHaveLength(10);
    expect(page.moreMalformedLines).toBe(140);
  });
});

describe('evaluateSecurityTxt', () => {
  it('a current, complete file over https: found, no finding, days until Expires', () => {
    const r = evaluateSecurityTxt({ domain: 'example.test', https: served(FULL), http: null }, NOW);
    expect(r).toMatchObject({
      found: true,
      url: URL_HTTPS,
      httpsStatus: 200,
      httpsError: null,
      signed: false,
      expiresAt: '2027-05-01T00:00:00.000Z',
      expiresInDays: 153,
      findings: [],
    });
  });

  it('missing: neither https nor http serves it, each reason said', () => {
    const r = evaluateSecurityTxt(
      {
        domain: 'example.test',
        https: served(null),
        http: served(null, { url: URL_HTTP, finalUrl: null, status: null, error: 'connection refused' }),
      },
      NOW,
    );
    expect(r.found).toBe(false);
    expect(r.findings).toEqual([
      {
        code: 'missing',
        severity: 'info',
        message: `No security.txt for example.test: ${URL_HTTPS} answered 404, and over http connection refused.`,
      },
    ]);
  });

  it('an HTML page answered with 200 and no field is a "not found" page, not the file', () => {
    const page = served('<html><body>Not here</body></html>', { contentType: 'text/html' });
    const r = evaluateSecurityTxt({ domain: 'example.test', https: page, http: null }, NOW);
    expect(codes(r)).toEqual(['missing']);
    expect(r.findings[0]!.message).toContain('answered an HTML page');
  });

  it('http-only, wrong content type, too large, no Contact, no Expires', () => {
    const r = evaluateSecurityTxt(
      {
        domain: 'example.test',
        https: served(null, { status: null, finalUrl: null, error: 'TLS handshake failed' }),
        http: served('Policy: https://example.test/policy\n', {
          url: URL_HTTP,
          finalUrl: URL_HTTP,
          contentType: 'text/plain; charset=iso-8859-1',
          truncated: true,
        }),
      },
      NOW,
    );
    expect(r).toMatchObject({ found: true, url: URL_HTTP, httpsStatus: null, httpsError: 'TLS handshake failed' });
    expect(r.findings).toEqual([
      expect.objectContaining({ code: 'http-only', severity: 'warning' }),
      {
        code: 'wrong-content-type',
        severity: 'warning',
        message:
          'security.txt is served as text/plain; charset=iso-8859-1; RFC 9116 §3 asks for text/plain; charset=utf-8.',
      },
      {
        code: 'too-large',
        severity: 'warning',
        message: `security.txt is larger than ${SECURITY_TXT_MAX_BYTES / 1024} KiB: only its first 32 KiB were read.`,
      },
      expect.objectContaining({ code: 'no-contact', severity: 'critical' }),
      expect.objectContaining({ code: 'no-expires', severity: 'warning' }),
    ]);
  });

  it('expired, and expires more than a year ahead', () => {
    const at = (expires: string) =>
      evaluateSecurityTxt(
        { domain: 'example.test', https: served(`Contact: mailto:a@example.test\nExpires: ${expires}\n`), http: null },
        NOW,
      );
    const expired = at('2026-11-01T00:00:00Z');
    expect(expired.expiresInDays).toBe(-28);
    expect(expired.findings).toEqual([
      {
        code: 'expired',
        severity: 'critical',
        message:
          'security.txt expired on 2026-11-01T00:00:00.000Z: researchers should consider it stale (RFC 9116 §2.5.5).',
      },
    ]);
    expect(at('2027-11-28T11:00:00Z').findings).toEqual([]);
    expect(at('2028-01-01T00:00:00Z').findings).toEqual([
      {
        code: 'expires-too-far',
        severity: 'info',
        message:
          'security.txt expires in 398 days: RFC 9116 §2.5.5 recommends less than a year, so that it does not go stale.',
      },
    ]);
  });

  it('canonical-mismatch unless one Canonical is the URL asked (or the one that answered after redirects)', () => {
    const file = (canonical: string, over: Partial<SecurityTxtFetch> = {}) =>
      evaluateSecurityTxt(
        {
          domain: 'example.test',
          https: served(
            `Contact: mailto:a@example.test\nExpires: 2027-01-01T00:00:00Z\nCanonical: ${canonical}\n`,
            over,
          ),
          http: null,
        },
        NOW,
      );
    expect(codes(file('https://other.test/.well-known/security.txt'))).toEqual(['canonical-mismatch']);
    expect(codes(file('https://EXAMPLE.test/.well-known/security.txt'))).toEqual([]);
    expect(
      codes(file('https://www.example.test/security.txt', { finalUrl: 'https://www.example.test/security.txt' })),
    ).toEqual([]);
  });

  it('malformed lines and a broken signature are findings; a signed file says so', () => {
    const r = evaluateSecurityTxt(
      { domain: 'example.test', https: served(SIGNED.replace('-----END PGP SIGNATURE-----', '')), http: null },
      NOW,
    );
    expect(r.signed).toBe(true);
    expect(r.findings).toEqual([
      {
        code: 'malformed',
        severity: 'warning',
        message: 'In security.txt, the signature block has no END PGP SIGNATURE line.',
      },
      {
        code: 'malformed',
        severity: 'warning',
        message:
          'One line of security.txt does not follow RFC 9116 §4 (line 6: not a field ("Name: value") nor a comment).',
      },
    ]);
  });
});
