import { describe, expect, it } from 'vitest';
import { checkSvgTinyPs } from './bimi-svg.js';
import { bimiVerdict, dmarcEligibility, judgeLogo, parseBimiRecord, type BimiEvidence } from './bimi.js';
import type { DmarcCheckResult } from '../../mail/dmarc-checker/dmarc.js';
import { TINY_PS_LOGO } from '../../../../test/lab/bimi-logo.js';

const TINY_PS = TINY_PS_LOGO;

function dmarc(policy: DmarcCheckResult['effectivePolicy'], pct?: string, found = true): DmarcCheckResult {
  return {
    domain: 'brand.test',
    found,
    record: found ? `v=DMARC1; p=${policy}` : '',
    tags: pct === undefined ? {} : { pct },
    queriedName: '_dmarc.brand.test',
    orgDomain: 'brand.test',
    inherited: false,
    multiple: false,
    policy,
    effectivePolicy: policy,
    valid: found,
    errors: [],
    warnings: [],
  };
}

describe('the SVG Tiny PS profile', () => {
  it('accepts a tiny-ps logo with a title', () => {
    expect(checkSvgTinyPs(TINY_PS)).toEqual({ tinyPs: true, errors: [] });
  });

  it('names each violation: profile, title, script, external reference, animation, embedding, handlers', () => {
    const bad =
      '<svg xmlns="http://www.w3.org/2000/svg" version="1.1" x="0" onload="go()"><script>alert(1)</script><image href="https://evil.test/x.png"/><a xlink:href="https://evil.test/"/><animate attributeName="r"/><foreignObject/></svg>';
    expect(checkSvgTinyPs(bad)).toEqual({
      tinyPs: false,
      errors: [
        'the <svg> element does not declare baseProfile="tiny-ps"',
        'the <svg> element does not declare version="1.2"',
        'the <svg> element has x= or y= attributes',
        'the file has no <title> (the brand name)',
        'the file has an event handler attribute (onload)',
        'the file has a <script> element',
        'the file embeds external content (<image>)',
        'the file references "https://evil.test/x.png" outside itself (href)',
        'the file references "https://evil.test/" outside itself (xlink:href)',
        'the file has an animation element (<animate>)',
        'the file embeds external content (<foreignObject>)',
      ],
    });
  });

  it('is not an SVG at all', () => {
    expect(checkSvgTinyPs('<html><title>x</title></html>').errors).toContain('the root element is not <svg>');
  });
});

describe('the record and the verdict', () => {
  it('reads l= and a=, which must be https: URLs', () => {
    expect(parseBimiRecord('v=BIMI1; l=https://brand.test/logo.svg; a=;')).toEqual({
      location: 'https://brand.test/logo.svg',
      authority: '',
      errors: [],
    });
    expect(parseBimiRecord('v=BIMI1; l=http://brand.test/logo.svg').errors).toEqual([
      'l=http://brand.test/logo.svg is not an https: URL (the draft requires HTTPS)',
    ]);
    expect(parseBimiRecord('v=BIMI1; a=https://brand.test/vmc.pem').errors).toEqual(['the record has no l= tag']);
  });

  it('needs DMARC quarantine or reject on all mail', () => {
    expect(dmarcEligibility(dmarc('reject')).eligible).toBe(true);
    expect(dmarcEligibility(dmarc('quarantine', '100')).eligible).toBe(true);
    expect(dmarcEligibility(dmarc('quarantine', '50')).reason).toBe(
      'DMARC pct=50; BIMI needs the policy on all mail (pct=100)',
    );
    expect(dmarcEligibility(dmarc('none')).reason).toBe('the DMARC policy is none; BIMI needs quarantine or reject');
    expect(dmarcEligibility(dmarc(null, undefined, false)).eligible).toBe(false);
  });

  it('judges the logo: status, type, size and profile', () => {
    const fetched = {
      status: 200,
      contentType: 'image/svg+xml',
      body: Buffer.from(TINY_PS),
      truncated: false,
      tlsError: null,
    };
    expect(judgeLogo(fetched)).toEqual({
      status: 200,
      contentType: 'image/svg+xml',
      bytes: TINY_PS.length,
      tinyPs: true,
      errors: [],
    });
    expect(judgeLogo({ ...fetched, contentType: 'image/png' }).errors).toEqual([
      'the logo is served as image/png, not image/svg+xml',
    ]);
    expect(judgeLogo({ ...fetched, truncated: true }).errors).toEqual(['the logo is larger than 32 KiB']);
    expect(judgeLogo({ ...fetched, status: 404, body: Buffer.from('nope') }).errors).toEqual([
      'the logo URL answered 404',
    ]);
  });

  it('valid, invalid, not configured, declined', () => {
    const evidence = (over: Partial<BimiEvidence>): BimiEvidence => ({
      domain: 'brand.test',
      selector: 'default',
      records: ['v=BIMI1; l=https://brand.test/logo.svg'],
      queriedName: 'default._bimi.brand.test',
      logo: {
        fetched: {
          status: 200,
          contentType: 'image/svg+xml',
          body: Buffer.from(TINY_PS),
          truncated: false,
          tlsError: null,
        },
      },
      dmarc: dmarc('reject'),
      ...over,
    });
    expect(bimiVerdict(evidence({}))).toMatchObject({ status: 'valid', found: true, dmarcEligible: true, errors: [] });
    expect(bimiVerdict(evidence({ records: [], logo: null }))).toMatchObject({
      status: 'not-configured',
      found: false,
    });
    expect(bimiVerdict(evidence({ records: ['v=BIMI1; l=; a='], logo: null })).status).toBe('not-configured');
    const weak = bimiVerdict(evidence({ dmarc: dmarc('none') }));
    expect(weak).toMatchObject({ status: 'invalid', dmarcEligible: false });
    const unreachable = bimiVerdict(evidence({ logo: { error: 'TCP connect failed' } }));
    expect(unreachable).toMatchObject({
      status: 'invalid',
      svg: null,
      errors: ['the logo could not be fetched: TCP connect failed'],
    });
  });
});
