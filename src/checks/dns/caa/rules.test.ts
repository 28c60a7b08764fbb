/**
 * caa's rules (rules.ts) on record sets, RFC 8659 §4: the grammar of the properties, who may issue for a
 * name and for its wildcards, and each finding; the climb's names (run.ts); and the website part's status
 * (check.ts caaFinding).
 */
import { describe, expect, it } from 'vitest';
import { caaFinding } from './check.js';
import { evaluateCaa, iodefProblem, parseIssueValue, type CaaRecordData } from './rules.js';
import { namesUpToTheRoot } from './run.js';

const prop = (tag: string, value: string, flags = 0): CaaRecordData => ({
  flags,
  critical: (flags & 128) !== 0,
  tag,
  value,
});
const at = (records: CaaRecordData[], foundAt: string | null = 'example.test') =>
  evaluateCaa({ domain: 'www.example.test', foundAt, aliases: [], checkedNames: [], records });

describe('the issue value (RFC 8659 §4.2)', () => {
  it('reads the issuer and its parameters, in lower case for the issuer', () => {
    expect(parseIssueValue('LetsEncrypt.org')).toEqual({ issuer: 'letsencrypt.org', parameters: [] });
    expect(parseIssueValue(' ca.example ; accounturi=https://ca.example/acct/1 ; validationmethods=dns-01')).toEqual({
      issuer: 'ca.example',
      parameters: [
        { key: 'accounturi', value: 'https://ca.example/acct/1' },
        { key: 'validationmethods', value: 'dns-01' },
      ],
    });
  });

  it('reads ";" and an empty value as naming no CA', () => {
    expect(parseIssueValue(';')).toEqual({ issuer: null, parameters: [] });
    expect(parseIssueValue('')).toEqual({ issuer: null, parameters: [] });
  });

  it('refuses an issuer that is no domain name and a parameter without =', () => {
    expect(parseIssueValue('not a domain!')).toBe('"not a domain!" is not a CA\'s domain name');
    expect(parseIssueValue('-ca.example')).toMatch(/is not a CA's domain name/);
    expect(parseIssueValue('ca.example; policy')).toBe('"policy" is not a key=value parameter');
  });
});

describe('the iodef value (RFC 8659 §4.4)', () => {
  it('takes mailto:, http: and https: URLs', () => {
    for (const url of ['mailto:security@example.test', 'https://example.test/caa', 'http://example.test/caa'])
      expect(iodefProblem(url), url).toBeNull();
  });
  it('refuses another scheme and what is no URL', () => {
    expect(iodefProblem('ftp://example.test/')).toBe('ftp: is not a scheme CAs report to (mailto:, http: or https:)');
    expect(iodefProblem('security at example.test')).toBe('"security at example.test" is not a URL');
  });
});

describe('who may issue', () => {
  it('no record set: any CA, for the name and for wildcards; a no-caa finding', () => {
    const result = at([], null);
    expect(result.mayIssue).toEqual({ restricted: false, issuers: [] });
    expect(result.mayIssueWildcard).toEqual({ restricted: false, issuers: [] });
    expect(result.findings).toEqual([
      {
        code: 'no-caa',
        severity: 'info',
        message: 'No CAA record at www.example.test or above it: any CA may issue certificates for it.',
      },
    ]);
  });

  it('issue names the CAs; without issuewild they decide for wildcards too; tags compare without case', () => {
    const result = at([prop('issue', 'letsencrypt.org'), prop('ISSUE', 'pki.goog; cansignhttpexchanges=yes')]);
    expect(result.mayIssue).toEqual({ restricted: true, issuers: ['letsencrypt.org', 'pki.goog'] });
    expect(result.mayIssueWildcard).toEqual(result.mayIssue);
    expect(result.issue.map((i) => i.issuer)).toEqual(['letsencrypt.org', 'pki.goog']);
    expect(result.findings).toEqual([]);
  });

  it('issuewild decides for wildcards; ";" in it forbids them', () => {
    const result = at([prop('issue', 'letsencrypt.org'), prop('issuewild', ';')]);
    expect(result.mayIssue).toEqual({ restricted: true, issuers: ['letsencrypt.org'] });
    expect(result.mayIssueWildcard).toEqual({ restricted: true, issuers: [] });
    expect(result.issuewild).toEqual([{ issuer: null, parameters: [], value: ';' }]);
  });

  it('only iodef or unknown non-critical tags: any CA may issue; iodef URLs listed', () => {
    const result = at([prop('iodef', 'mailto:sec@example.test'), prop('tbs', 'whatever')]);
    expect(result.mayIssue.restricted).toBe(false);
    expect(result.iodef).toEqual(['mailto:sec@example.test']);
    expect(result.findings).toEqual([]);
  });

  it('issue ";" alone: no CA may issue, a no-ca-allowed finding', () => {
    const result = at([prop('issue', ';')]);
    expect(result.mayIssue).toEqual({ restricted: true, issuers: [] });
    expect(result.findings).toEqual([
      {
        code: 'no-ca-allowed',
        severity: 'info',
        message: 'The CAA records at example.test name no CA: no CA may issue certificates for www.example.test.',
      },
    ]);
  });
});

describe('findings', () => {
  it('malformed: a bad tag, issue value or iodef URL, each named; a malformed issue authorizes no CA but restricts', () => {
    const result = at([prop('issue', 'not a domain!'), prop('bad_tag', 'x'), prop('iodef', 'ftp://example.test/')]);
    expect(result.records.map((r) => r.malformed)).toEqual([
      '"not a domain!" is not a CA\'s domain name',
      'the tag "bad_tag" is not 1 to 15 letters and digits',
      'ftp: is not a scheme CAs report to (mailto:, http: or https:)',
    ]);
    expect(result.findings.map((f) => [f.code, f.severity])).toEqual([
      ['malformed', 'warning'],
      ['malformed', 'warning'],
      ['malformed', 'warning'],
      ['no-ca-allowed', 'info'],
    ]);
    expect(result.findings[0]!.message).toBe(
      'The CAA property issue "not a domain!" is malformed: "not a domain!" is not a CA\'s domain name; it authorizes no CA.',
    );
    expect(result.mayIssue).toEqual({ restricted: true, issuers: [] });
    expect(result.iodef).toEqual([]);
  });

  it('unknown-critical: a critical tag CAs do not know forbids every CA; a known critical tag does not', () => {
    const result = at([prop('issue', 'letsencrypt.org', 128), prop('futuretag', 'x', 128)]);
    expect(result.mayIssue).toEqual({ restricted: true, issuers: [] });
    expect(result.mayIssueWildcard).toEqual({ restricted: true, issuers: [] });
    expect(result.findings).toEqual([
      {
        code: 'unknown-critical',
        severity: 'critical',
        message:
          'The CAA property futuretag is marked critical and is not one CAs know: every CA must refuse to issue for www.example.test.',
      },
    ]);
    expect(at([prop('issue', 'letsencrypt.org', 128)]).findings).toEqual([]);
  });
});

describe('the climb', () => {
  it('asks the name and each parent, the root excluded', () => {
    expect(namesUpToTheRoot('www.Sub.Example.test.')).toEqual([
      'www.sub.example.test',
      'sub.example.test',
      'example.test',
      'test',
    ]);
  });
});

describe("website-health-check's caa part", () => {
  it('ok names the CAs; info without CAA; warning when no CA may issue or a property is malformed; critical for an unknown critical tag', () => {
    expect(caaFinding(at([prop('issue', 'letsencrypt.org')]))).toMatchObject({
      status: 'ok',
      summary: 'Only letsencrypt.org may issue certificates for www.example.test (CAA at example.test).',
    });
    expect(caaFinding(at([], null))).toMatchObject({
      status: 'info',
      summary:
        'No CAA record: any CA may issue certificates for www.example.test; publish CAA records naming the CAs you use.',
    });
    expect(caaFinding(at([prop('issue', ';')])).status).toBe('warning');
    expect(caaFinding(at([prop('issue', 'letsencrypt.org'), prop('iodef', 'ftp://x.test/')]))).toMatchObject({
      status: 'warning',
      summary: expect.stringMatching(/^The CAA property iodef "ftp:\/\/x\.test\/" is malformed.* Fix the record\.$/),
    });
    expect(caaFinding(at([prop('futuretag', 'x', 128)]))).toMatchObject({
      status: 'critical',
      summary: expect.stringMatching(/Remove the property or clear its critical flag\.$/),
    });
    const data = at([prop('issue', 'letsencrypt.org')]);
    expect(caaFinding(data).details).toBe(data);
  });
});
