/** The signature of a delivery (src/jobs/signed-delivery.ts): HMAC-SHA256 of "<timestamp>.<body>". */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signatureOf, signedHeaders } from '../../../src/jobs/signed-delivery.js';

describe('signed delivery', () => {
  it('signs the timestamp with the body, so the same body sent later has another signature', () => {
    const body = '{"id":"j1","status":"done"}';
    const headers = signedHeaders(body, 'secret', 1_700_000_000_999);
    expect(headers['x-netdiag-timestamp']).toBe('1700000000');
    const expected = createHmac('sha256', Buffer.from('secret', 'utf8')).update(`1700000000.${body}`).digest('hex');
    expect(headers['x-netdiag-signature']).toBe(`sha256=${expected}`);
    expect(signatureOf(1_700_000_300, body, 'secret')).not.toBe(headers['x-netdiag-signature']);
  });
});
