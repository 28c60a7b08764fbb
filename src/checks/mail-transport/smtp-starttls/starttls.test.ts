import { describe, expect, it } from 'vitest';
import { unreachableText } from './starttls.js';
import { ProbeError } from '../../../probes/errors.js';
import { SmtpProbeError } from '../../../probes/smtp/session.js';

describe('unreachableText', () => {
  it('says that port 25 is often blocked on the way out when the connect to port 25 fails', () => {
    const refused = new SmtpProbeError(
      'REFUSED',
      '192.0.2.1:25',
      'connect',
      null,
      'TCP connect to 192.0.2.1:25 failed: connect ECONNREFUSED',
    );
    expect(unreachableText(refused, 25)).toBe(
      'TCP connect to 192.0.2.1:25 failed: connect ECONNREFUSED; outbound port 25 is blocked by many networks and cloud providers, so this may be the egress of this service rather than the mail server',
    );
    const filtered = new SmtpProbeError(
      'TIMEOUT',
      '192.0.2.1:25',
      'connect',
      null,
      'no answer from 192.0.2.1:25 within 5000 ms',
    );
    expect(unreachableText(filtered, 25)).toMatch(/outbound port 25 is blocked/);
  });

  it('does not blame the egress for another port, or for a server that answered', () => {
    const refused = new SmtpProbeError(
      'REFUSED',
      '192.0.2.1:587',
      'connect',
      null,
      'TCP connect to 192.0.2.1:587 failed',
    );
    expect(unreachableText(refused, 587)).toBe('TCP connect to 192.0.2.1:587 failed');
    const greeting = new SmtpProbeError(
      'UNREACHABLE',
      '192.0.2.1:25',
      'greeting',
      { code: 554, lines: ['no'] },
      '192.0.2.1:25 refused the session in its greeting: 554 no',
    );
    expect(unreachableText(greeting, 25)).toBe('192.0.2.1:25 refused the session in its greeting: 554 no');
    expect(unreachableText(new ProbeError('MALFORMED', '192.0.2.1:25', 'x sent y'), 25)).toBe('x sent y');
  });
});
