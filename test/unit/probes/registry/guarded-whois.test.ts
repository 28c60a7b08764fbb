/** The guarded WHOIS client: every WHOIS server passes the target rules before and after connecting. */
import { afterEach, describe, expect, it } from 'vitest';
import { createGuardedWhoisClient, type WhoisServerGuard } from '../../../../src/probes/registry/guarded-whois.js';
import { TargetRefusedError } from '../../../../src/errors.js';
import { ProbeError } from '../../../../src/probes/errors.js';
import type { ResolvedAddress } from '../../../../src/probes/guard.js';
import { startWhoisLab, type WhoisLab } from '../../../lab/whois-server.js';

let lab: WhoisLab | null = null;
afterEach(async () => {
  await lab?.close();
  lab = null;
});

const ANSWER = 'Domain Name: EXAMPLE.TEST\r\nRegistrar: Lab Registrar\r\n';

/** A guard that refuses the addresses listed (as the real one refuses special-purpose ranges). */
function guard(
  names: Record<string, ResolvedAddress[] | Error>,
  refused: string[] = [],
): WhoisServerGuard & { checked: string[] } {
  const checked: string[] = [];
  return {
    checked,
    async addresses(name) {
      const found = names[name];
      if (found === undefined) return [];
      if (found instanceof Error) throw found;
      return found;
    },
    assertAllowed(address, target) {
      checked.push(address);
      if (refused.includes(address)) throw new TargetRefusedError(target, address, 'loopback');
    },
  };
}

async function failure(p: Promise<unknown>): Promise<ProbeError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProbeError);
  return err as ProbeError;
}

describe('createGuardedWhoisClient', () => {
  it('resolves the server through the injected resolver, checks every address and connects to the IPv4 one', async () => {
    lab = await startWhoisLab({ 'whois.lab.test': { 'example.test': ANSWER } });
    const g = guard({
      'whois.lab.test': [
        { address: '::1', family: 6 },
        { address: '127.0.0.1', family: 4 },
      ],
    });
    const answer = await createGuardedWhoisClient(g).query('whois.lab.test', lab.port, 'example.test', {
      timeoutMs: 2000,
    });
    expect(answer.text).toBe(ANSWER);
    // both resolved addresses before connecting, then the socket's peer
    expect(g.checked).toEqual(['::1', '127.0.0.1', '127.0.0.1']);
    expect(lab.queries).toEqual([{ server: 'whois.lab.test', line: 'example.test' }]);
  });

  it('refuses a server when ANY of its addresses is refused, and connects to none', async () => {
    lab = await startWhoisLab({ 'whois.lab.test': { '*': ANSWER } });
    const g = guard(
      {
        'whois.lab.test': [
          { address: '127.0.0.1', family: 4 },
          { address: '127.0.0.9', family: 4 },
        ],
      },
      ['127.0.0.9'],
    );
    const err = await failure(
      createGuardedWhoisClient(g).query('whois.lab.test', lab.port, 'example.test', { timeoutMs: 2000 }),
    );
    expect(err.kind).toBe('REFUSED');
    expect(err.upstream).toBe(`whois.lab.test:${lab.port}`);
    expect(err.message).toBe(
      `WHOIS server whois.lab.test:${lab.port} resolves to 127.0.0.9, a loopback address; it was not contacted (private and internal addresses are refused)`,
    );
    expect(lab.queries).toEqual([]);
  });

  it('checks an IP-literal server without resolving it', async () => {
    lab = await startWhoisLab({ 'whois.lab.test': { '*': ANSWER } });
    const err = await failure(
      createGuardedWhoisClient(guard({}, ['127.0.0.1'])).query('127.0.0.1', lab.port, 'example.test', {
        timeoutMs: 2000,
      }),
    );
    expect(err.message).toBe(
      `WHOIS server 127.0.0.1:${lab.port} is a loopback address; it was not contacted (private and internal addresses are refused)`,
    );
    expect(lab.queries).toEqual([]);
  });

  it("re-checks the socket's peer after connecting and writes nothing to a refused one", async () => {
    lab = await startWhoisLab({ 'whois.lab.test': { '*': ANSWER } });
    // the check before connecting passes; the peer check after connecting refuses
    let calls = 0;
    const flipping: WhoisServerGuard = {
      addresses: async () => [],
      assertAllowed(address, target) {
        if (++calls > 1) throw new TargetRefusedError(target, address, 'loopback');
      },
    };
    const err = await failure(
      createGuardedWhoisClient(flipping).query('127.0.0.1', lab.port, 'example.test', { timeoutMs: 2000 }),
    );
    expect(err.kind).toBe('UNREACHABLE');
    expect(err.message).toContain('connected to 127.0.0.1, which is refused');
    expect(calls).toBe(2);
    expect(lab.queries).toEqual([]);
  });

  it('names the WHOIS server when its name cannot be resolved or has no address', async () => {
    const dnsDown = new ProbeError('TIMEOUT', '127.0.0.1:53', 'DNS server 127.0.0.1:53 did not answer within 2000 ms');
    const client = createGuardedWhoisClient(guard({ 'whois.down.test': dnsDown }));
    const timedOut = await failure(client.query('whois.down.test', 43, 'example.test', { timeoutMs: 2000 }));
    expect(timedOut.kind).toBe('TIMEOUT');
    expect(timedOut.upstream).toBe('whois.down.test:43');
    expect(timedOut.message).toBe(
      'WHOIS server name whois.down.test could not be resolved (DNS server 127.0.0.1:53 did not answer within 2000 ms)',
    );
    const none = await failure(client.query('whois.none.test', 43, 'example.test', { timeoutMs: 2000 }));
    expect(none.kind).toBe('UNREACHABLE');
    expect(none.message).toBe('WHOIS server name whois.none.test has no address (no A or AAAA record)');
  });

  it('passes a cancellation through unchanged', async () => {
    const aborted = new ProbeError('ABORTED', '127.0.0.1:53', 'DNS query was cancelled');
    const err = await failure(
      createGuardedWhoisClient(guard({ 'whois.lab.test': aborted })).query('whois.lab.test', 43, 'example.test', {
        timeoutMs: 2000,
      }),
    );
    expect(err).toBe(aborted);
  });
});
