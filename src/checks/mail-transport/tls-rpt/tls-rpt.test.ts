import { describe, expect, it } from 'vitest';
import { checkTlsRpt, isTlsRptRecord, parseTlsRpt } from './tls-rpt.js';
import type { TxtAnswer } from '../../mail/shared/txt.js';

const lookup = (records: string[], rcode: TxtAnswer['rcode'] = 'NOERROR') => {
  const asked: string[] = [];
  return {
    asked,
    txt: async (name: string): Promise<TxtAnswer> => {
      asked.push(name);
      return { rcode, records };
    },
  };
};

describe('TLS-RPT records (RFC 8460 §3)', () => {
  it('recognises a record only by its case-sensitive version at the start', () => {
    expect(isTlsRptRecord('v=TLSRPTv1; rua=mailto:r@example.com')).toBe(true);
    expect(isTlsRptRecord('v=TLSRPTv1;rua=mailto:r@example.com')).toBe(true);
    expect(isTlsRptRecord('v=tlsrptv1; rua=mailto:r@example.com')).toBe(false);
    expect(isTlsRptRecord('v=TLSRPTv10; rua=mailto:r@example.com')).toBe(false);
    expect(isTlsRptRecord('rua=mailto:r@example.com; v=TLSRPTv1')).toBe(false);
    expect(isTlsRptRecord('v=spf1 -all')).toBe(false);
  });

  it('reads several rua URIs, mailto: and https:, as written', () => {
    expect(parseTlsRpt('v=TLSRPTv1; rua=mailto:tls@example.com , https://reports.example.com/v1/tlsrpt;')).toEqual({
      rua: ['mailto:tls@example.com', 'https://reports.example.com/v1/tlsrpt'],
      errors: [],
    });
  });

  it('accepts extension fields and refuses malformed ones', () => {
    expect(parseTlsRpt('v=TLSRPTv1; rua=mailto:a@b.example; ext_1=x').errors).toEqual([]);
    expect(parseTlsRpt('v=TLSRPTv1; rua=mailto:a@b.example; bogus').errors).toEqual([
      '"bogus" is not a valid field (name=value, RFC 8460 §3)',
    ]);
  });

  it('names each problem: no rua, a second rua, a scheme other than mailto/https, a bad address', () => {
    expect(parseTlsRpt('v=TLSRPTv1').errors).toEqual(['the record has no rua= field: reports cannot be sent anywhere']);
    expect(parseTlsRpt('v=TLSRPTv1; rua=mailto:a@b.example; rua=mailto:c@d.example').errors).toEqual([
      'rua= appears more than once',
    ]);
    expect(parseTlsRpt('v=TLSRPTv1; rua=http://reports.example.com/').errors).toEqual([
      'rua URI "http://reports.example.com/" must use mailto: or https: (RFC 8460 §3)',
    ]);
    expect(parseTlsRpt('v=TLSRPTv1; rua=mailto:nobody').errors).toEqual([
      'rua URI "mailto:nobody" is not a mailto: address (mailto:user@example.com)',
    ]);
    expect(parseTlsRpt('v=TLSRPTv1; rua=mailto:a@b.example,').errors).toEqual(['rua= has an empty URI']);
  });
});

describe('checkTlsRpt', () => {
  it('asks _smtp._tls.<domain> and reports the one record that applies', async () => {
    const dns = lookup(['v=spf1 -all', 'v=TLSRPTv1; rua=mailto:tls@example.com']);
    expect(await checkTlsRpt('example.com', dns.txt)).toEqual({
      domain: 'example.com',
      found: true,
      record: 'v=TLSRPTv1; rua=mailto:tls@example.com',
      multiple: false,
      rua: ['mailto:tls@example.com'],
      valid: true,
      errors: [],
    });
    expect(dns.asked).toEqual(['_smtp._tls.example.com']);
  });

  it('no record (NXDOMAIN or only other TXT): not found, no error', async () => {
    for (const dns of [lookup([], 'NXDOMAIN'), lookup(['google-site-verification=x'])]) {
      expect(await checkTlsRpt('example.com', dns.txt)).toMatchObject({ found: false, valid: false, errors: [] });
    }
  });

  it('several records: found, none applies', async () => {
    const dns = lookup(['v=TLSRPTv1; rua=mailto:a@b.example', 'v=TLSRPTv1; rua=mailto:c@d.example']);
    expect(await checkTlsRpt('example.com', dns.txt)).toEqual({
      domain: 'example.com',
      found: true,
      record: '',
      multiple: true,
      rua: [],
      valid: false,
      errors: ['2 TLS-RPT records at _smtp._tls.example.com: none applies (RFC 8460 §3)'],
    });
  });

  it('a failed question is thrown, not reported as "no record"', async () => {
    const failing = async (): Promise<TxtAnswer> => {
      throw new Error('SERVFAIL');
    };
    await expect(checkTlsRpt('example.com', failing)).rejects.toThrow('SERVFAIL');
  });
});
