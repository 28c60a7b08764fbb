/** Whether a chain reaches a trust anchor (tls-rating's judgement after AIA completion). */
import { afterAll, describe, expect, it } from 'vitest';
import { trustAnchors, verifyChain } from '../../../../src/probes/tls/chain-verify.js';
import { createRatingPki } from '../../../lab/rating-pki.js';

const pki = createRatingPki();
const other = createRatingPki();
afterAll(() => {
  pki.close();
  other.close();
});

const der = (pem: string) => Buffer.from(pem.replace(/-----[^-]+-----|\s/g, ''), 'base64');

describe('verifyChain', () => {
  const leaf = pki.leaf({ names: ['chain.lab.test'], key: 'ec256' });
  // after the leaf was made: openssl starts its validity at the second it was issued, which a time read
  // before could precede
  const now = new Date(Date.now() + 1_000);
  const anchors = trustAnchors(pki.root);

  it('a leaf, its intermediate and the anchor that issued it: trusted', () => {
    expect(verifyChain([der(leaf.cert), pki.intermediateDer], anchors, now)).toEqual({ trusted: true, reason: null });
  });

  it('a leaf alone does not reach the anchor', () => {
    expect(verifyChain([der(leaf.cert)], anchors, now)).toMatchObject({ trusted: false });
  });

  it('an intermediate of another hierarchy did not issue the leaf', () => {
    expect(verifyChain([der(leaf.cert), other.intermediateDer], anchors, now)).toMatchObject({
      trusted: false,
      reason: expect.stringContaining('did not issue'),
    });
  });

  it('another anchor does not trust it', () => {
    expect(verifyChain([der(leaf.cert), pki.intermediateDer], trustAnchors(other.root), now).trusted).toBe(false);
  });

  it('a certificate outside its dates breaks the chain', () => {
    const later = new Date(now.getTime() + 200 * 86_400_000);
    expect(verifyChain([der(leaf.cert), pki.intermediateDer], anchors, later)).toMatchObject({
      trusted: false,
      reason: expect.stringContaining('outside its dates'),
    });
  });
});
