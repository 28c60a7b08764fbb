import { describe, expect, it } from 'vitest';
import { InputError, TargetRefusedError, withArticle } from '../../../src/errors.js';
import { ProbeError } from '../../../src/probes/errors.js';
import { createTargetGuard, type Resolve, type ResolvedAddress } from '../../../src/probes/guard.js';
import { parseHostOrIp } from '../../../src/validation.js';

/**
 * A stub resolver: answers from a table and records the questions. Nothing is
 * ever sent; public addresses appear here as values only.
 */
function stubResolver(
  zone: Record<string, readonly string[]>,
): Resolve & { asked: { hostname: string; signal?: AbortSignal }[] } {
  const asked: { hostname: string; signal?: AbortSignal }[] = [];
  const resolve = async (hostname: string, signal?: AbortSignal): Promise<ResolvedAddress[]> => {
    asked.push({ hostname, signal });
    const addresses = zone[hostname];
    if (!addresses) throw new ProbeError('SERVFAIL', '127.0.0.1:53', `no stub answer for ${hostname}`);
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolve, { asked });
}

async function refusal(run: () => Promise<unknown>): Promise<TargetRefusedError> {
  const error = await run().then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TargetRefusedError);
  const refused = error as TargetRefusedError;
  expect(refused.status).toBe(400);
  expect(refused.code).toBe('TARGET_REFUSED');
  return refused;
}

const ZONE = {
  'public.example': ['93.184.216.34', '2606:4700::1'],
  'mixed.example': ['93.184.216.34', '10.0.0.5'],
  'mixed-v6.example': ['2606:4700::1', 'fd00::5'],
  'rebind.example': ['93.184.216.34', '::ffff:127.0.0.1'],
  'nat64.example': ['64:ff9b::a9fe:a9fe'],
  'metadata.example': ['169.254.169.254'],
  'duplicates.example': ['93.184.216.34', '93.184.216.34', '::ffff:93.184.216.34', '2606:4700:0:0::1'],
  'empty.example': [],
  'garbage.example': ['not-an-address'],
  'lab.example': ['127.0.0.1', '::1'],
  'intranet.example': ['10.1.2.3', '::ffff:10.1.2.4'],
} as const;

describe('createTargetGuard: IP literals', () => {
  it('admits a public IPv4 or IPv6 literal without resolving anything', async () => {
    const resolve = stubResolver(ZONE);
    const guard = createTargetGuard({ allow: [], resolve });
    await expect(guard.check(parseHostOrIp('host', '93.184.216.34'))).resolves.toEqual({
      input: '93.184.216.34',
      hostname: null,
      addresses: [{ address: '93.184.216.34', family: 4 }],
    });
    await expect(guard.check(parseHostOrIp('host', '[2606:4700::1]'))).resolves.toEqual({
      input: '2606:4700::1',
      hostname: null,
      addresses: [{ address: '2606:4700::1', family: 6 }],
    });
    expect(resolve.asked).toEqual([]);
  });

  it('admits an IPv4-mapped public address as the IPv4 address it stands for', async () => {
    const guard = createTargetGuard({ allow: [], resolve: stubResolver(ZONE) });
    const checked = await guard.check(parseHostOrIp('host', '::ffff:93.184.216.34'));
    expect(checked.addresses).toEqual([{ address: '93.184.216.34', family: 4 }]);
  });

  // Every way of writing a loopback or private address that the input rules let through ends refused.
  it.each([
    ['127.0.0.1', 'loopback'],
    ['2130706433', 'loopback'],
    ['0177.0.0.1', 'loopback'],
    ['0x7f000001', 'loopback'],
    ['127.1', 'loopback'],
    ['0x7f.1', 'loopback'],
    ['１２７．０．０．１', 'loopback'],
    ['0', 'unspecified'],
    ['0.0.0.0', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::', 'unspecified'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback'],
    ['::ffff:a00:1', 'IPv4-mapped private'],
    ['64:ff9b::7f00:1', 'NAT64 of loopback'],
    ['64:ff9b::a00:1', 'NAT64 of private'],
    ['2002:c0a8:101::1', '6to4 of private'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['::127.0.0.1', 'reserved'],
    ['10.0.0.1', 'private'],
    ['167772161', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.0.1', 'private'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['169.254.169.254', 'link-local'],
    ['0xa9fea9fe', 'link-local'],
    ['192.0.2.1', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['224.0.0.1', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'limited-broadcast'],
    ['4294967295', 'limited-broadcast'],
    ['fd00:ec2::254', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['5f00::1', 'SRv6 SID'],
    ['100::1', 'discard-only'],
  ])('refuses %j as %s', async (value, range) => {
    const resolve = stubResolver(ZONE);
    const guard = createTargetGuard({ allow: [], resolve });
    const target = parseHostOrIp('host', value);
    const refused = await refusal(() => guard.check(target));
    expect(refused.message).toContain(`${withArticle(range)} address`);
    expect(refused.message).toContain('checks of private or internal addresses are refused');
    expect(resolve.asked).toEqual([]);
  });

  it('names the canonical address in the refusal', async () => {
    const guard = createTargetGuard({ allow: [], resolve: stubResolver(ZONE) });
    const refused = await refusal(() => guard.check(parseHostOrIp('host', '2130706433')));
    expect(refused.address).toBe('127.0.0.1');
    expect(refused.message).toBe(
      'target 127.0.0.1 is a loopback address; checks of private or internal addresses are refused',
    );
  });
});

describe('createTargetGuard: the refund mark follows the origin of the target (decisions §1)', () => {
  const guard = createTargetGuard({ allow: [], resolve: stubResolver({ 'inside.example': ['10.0.0.5'] }) });

  it('marks a refused literal the caller gave as decided before upstream (its price is given back)', async () => {
    const refused = await refusal(() => guard.check(parseHostOrIp('host', '127.0.0.1'), undefined, 'host', 'caller'));
    expect(refused.beforeUpstream).toBe(true);
  });

  it('leaves a refused literal read out of an answer unmarked, and unmarked is the default', async () => {
    const upstream = await refusal(() => guard.check(parseHostOrIp('url', '127.0.0.1'), undefined, 'url', 'upstream'));
    expect(upstream.beforeUpstream).toBe(false);
    const unsaid = await refusal(() => guard.check(parseHostOrIp('url', '10.0.0.1')));
    expect(unsaid.beforeUpstream).toBe(false);
  });

  it('never marks a refused name, whoever gave it (a question went upstream)', async () => {
    const refused = await refusal(() =>
      guard.check(parseHostOrIp('host', 'inside.example'), undefined, 'host', 'caller'),
    );
    expect(refused.beforeUpstream).toBe(false);
  });
});

describe('createTargetGuard: hostnames', () => {
  it('resolves once, passes the signal on, and returns every checked address', async () => {
    const resolve = stubResolver(ZONE);
    const guard = createTargetGuard({ allow: [], resolve });
    const signal = new AbortController().signal;
    await expect(guard.check({ kind: 'hostname', hostname: 'public.example' }, signal)).resolves.toEqual({
      input: 'public.example',
      hostname: 'public.example',
      addresses: [
        { address: '93.184.216.34', family: 4 },
        { address: '2606:4700::1', family: 6 },
      ],
    });
    expect(resolve.asked).toEqual([{ hostname: 'public.example', signal }]);
  });

  it('returns canonical, de-duplicated addresses (mapped forms as IPv4)', async () => {
    const guard = createTargetGuard({ allow: [], resolve: stubResolver(ZONE) });
    const checked = await guard.check({ kind: 'hostname', hostname: 'duplicates.example' });
    expect(checked.addresses).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:4700::1', family: 6 },
    ]);
  });

  it.each([
    ['mixed.example', '10.0.0.5', 'private'],
    ['mixed-v6.example', 'fd00::5', 'unique-local'],
    ['rebind.example', '::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['nat64.example', '64:ff9b::a9fe:a9fe', 'NAT64 of link-local'],
    ['metadata.example', '169.254.169.254', 'link-local'],
    ['lab.example', '127.0.0.1', 'loopback'],
  ])('refuses %s whole because one address is special (%s)', async (hostname, address, range) => {
    const guard = createTargetGuard({ allow: [], resolve: stubResolver(ZONE) });
    const refused = await refusal(() => guard.check({ kind: 'hostname', hostname }));
    expect(refused.address).toBe(address);
    expect(refused.message).toBe(
      `target ${hostname} resolves to ${address}, ${withArticle(range)} address; checks of private or internal addresses are refused`,
    );
  });

  it('fails closed on an answer that is not an IP address', async () => {
    const guard = createTargetGuard({ allow: ['0.0.0.0/0', '::/0'], resolve: stubResolver(ZONE) });
    const refused = await refusal(() => guard.check({ kind: 'hostname', hostname: 'garbage.example' }));
    expect(refused.address).toBe('not-an-address');
  });

  it('answers a name with no A or AAAA record with an InputError naming the parameter', async () => {
    const guard = createTargetGuard({ allow: [], resolve: stubResolver(ZONE) });
    const error = await guard
      .check({ kind: 'hostname', hostname: 'empty.example' }, undefined, 'host')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).parameter).toBe('host');
    expect((error as InputError).message).toBe(
      'host: empty.example has no A or AAAA record, so there is no address to check',
    );
  });

  it('lets a resolution error through unchanged', async () => {
    const failure = new ProbeError('TIMEOUT', '127.0.0.1:53', 'no answer within 2000 ms');
    const guard = createTargetGuard({
      allow: [],
      resolve: async () => {
        throw failure;
      },
    });
    await expect(guard.check({ kind: 'hostname', hostname: 'slow.example' })).rejects.toBe(failure);
  });
});

describe('createTargetGuard: targets.allow', () => {
  it('exempts addresses inside an IPv4 CIDR, including their IPv4-mapped forms', async () => {
    const guard = createTargetGuard({ allow: ['10.0.0.0/8'], resolve: stubResolver(ZONE) });
    const checked = await guard.check({ kind: 'hostname', hostname: 'intranet.example' });
    expect(checked.addresses).toEqual([
      { address: '10.1.2.3', family: 4 },
      { address: '10.1.2.4', family: 4 },
    ]);
    await expect(guard.check(parseHostOrIp('host', '::ffff:10.9.9.9'))).resolves.toMatchObject({
      addresses: [{ address: '10.9.9.9', family: 4 }],
    });
    await expect(guard.check(parseHostOrIp('host', '10.1'))).resolves.toMatchObject({
      addresses: [{ address: '10.0.0.1', family: 4 }],
    });
  });

  it('still refuses what the allow list does not cover', async () => {
    const guard = createTargetGuard({ allow: ['10.0.0.0/8'], resolve: stubResolver(ZONE) });
    await refusal(() => guard.check(parseHostOrIp('host', '192.168.0.1')));
    await refusal(() => guard.check(parseHostOrIp('host', '127.0.0.1')));
    // NAT64 forms are not IPv4-mapped forms: 10/8 does not exempt them.
    await refusal(() => guard.check(parseHostOrIp('host', '64:ff9b::a00:1')));
  });

  it('exempts IPv6 CIDRs and single addresses', async () => {
    const guard = createTargetGuard({ allow: ['fd00::/8', '127.0.0.1', '::1'], resolve: stubResolver(ZONE) });
    await expect(guard.check({ kind: 'hostname', hostname: 'lab.example' })).resolves.toMatchObject({
      addresses: [
        { address: '127.0.0.1', family: 4 },
        { address: '::1', family: 6 },
      ],
    });
    await expect(guard.check(parseHostOrIp('host', 'fd00::5'))).resolves.toMatchObject({
      addresses: [{ address: 'fd00::5', family: 6 }],
    });
    await refusal(() => guard.check(parseHostOrIp('host', 'fc00::5')));
    await refusal(() => guard.check(parseHostOrIp('host', '127.0.0.2')));
  });

  it('refuses to start with a malformed CIDR', () => {
    expect(() => createTargetGuard({ allow: ['10.0.0.0/33'], resolve: stubResolver(ZONE) })).toThrow(TypeError);
  });
});

describe('assertAllowed', () => {
  const guard = createTargetGuard({ allow: [], resolve: stubResolver(ZONE) });

  it('passes a public peer address', () => {
    expect(() => guard.assertAllowed('93.184.216.34', 'public.example')).not.toThrow();
    expect(() => guard.assertAllowed('::ffff:93.184.216.34', 'public.example')).not.toThrow();
    expect(() => guard.assertAllowed('2606:4700::1', 'public.example')).not.toThrow();
  });

  it.each([
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['127.0.0.1', 'loopback'],
    ['fe80::1%eth0', 'link-local'],
    ['10.0.0.1', 'private'],
  ])('refuses the peer %s (%s)', (address, range) => {
    let caught: unknown;
    try {
      guard.assertAllowed(address, 'public.example');
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(TargetRefusedError);
    expect((caught as TargetRefusedError).message).toContain(
      `target public.example resolves to ${address}, ${withArticle(range)} address`,
    );
  });

  it.each(['', 'example.com', '2130706433', '127.1'])('fails closed on the non-canonical peer text %j', (address) => {
    expect(() => guard.assertAllowed(address, 'public.example')).toThrow(TargetRefusedError);
  });

  it('honours targets.allow, zone identifiers included', () => {
    const lab = createTargetGuard({ allow: ['fe80::/10', '127.0.0.0/8'], resolve: stubResolver(ZONE) });
    expect(() => lab.assertAllowed('fe80::1%eth0', 'lab')).not.toThrow();
    expect(() => lab.assertAllowed('::ffff:127.0.0.1', 'lab')).not.toThrow();
  });
});
