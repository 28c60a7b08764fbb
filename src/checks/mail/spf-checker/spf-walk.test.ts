/**
 * The SPF walk (src/checks/mail/spf-checker/walk.ts) asks the sibling terms of a record at once — one level of
 * the tree per round trip — yet reports in record order, exactly as a sequential walk would.
 */
import { describe, expect, it } from 'vitest';
import { checkSpf, type SpfLookups } from './walk.js';
import type { TxtAnswer } from '../shared/txt.js';
import { ProbeError } from '../../../probes/errors.js';

type Zone = Record<string, string[] | ProbeError>;

/** Lookups over in-memory zones, logging "TYPE name"; `hold` keeps answers back until released. */
function lab(zones: { txt: Zone; a?: Zone; aaaa?: Zone; mx?: Zone }, hold = false) {
  const asked: string[] = [];
  const pending: Array<() => void> = [];
  const lookup =
    (type: string, zone: Zone = {}) =>
    (name: string): Promise<TxtAnswer> => {
      asked.push(`${type} ${name}`);
      const answer = () => {
        const entry = zone[name];
        if (entry instanceof ProbeError) throw entry;
        return entry === undefined
          ? { rcode: 'NXDOMAIN' as const, records: [] }
          : { rcode: 'NOERROR' as const, records: entry };
      };
      if (!hold) return Promise.resolve().then(answer);
      return new Promise((resolve, reject) =>
        pending.push(() => {
          try {
            resolve(answer());
          } catch (e) {
            reject(e);
          }
        }),
      );
    };
  const lookups: SpfLookups = {
    txt: lookup('TXT', zones.txt),
    a: lookup('A', zones.a),
    aaaa: lookup('AAAA', zones.aaaa),
    mx: lookup('MX', zones.mx),
  };
  /** answers every question asked so far, then lets the callbacks run */
  const release = async () => {
    for (const answer of pending.splice(0)) answer();
    for (let i = 0; i < 10; i++) await Promise.resolve();
  };
  return { lookups, asked, release };
}

const tree: Zone = {
  'mail.test': ['v=spf1 a mx exists:%{d}.check.test include:one.test include:two.test ptr -all', 'unrelated'],
  'one.test': ['v=spf1 include:deep.test include:%{i}.macro.test ~all'],
  'two.test': ['v=spf1 ip4:1.2.3.4 redirect=three.test'],
  'three.test': ['v=spf1 include:mail.test -all'],
  'deep.test': ['v=spf1 a:v6only.test -all'],
};

describe('the SPF walk', () => {
  it('asks the sibling terms of a record together, one level per round trip', async () => {
    const { lookups, asked, release } = lab({ txt: tree }, true);
    const done = checkSpf('Mail.Test.', lookups);
    expect(asked).toEqual(['TXT mail.test']);
    await release();
    // every term of the root record at once: a, mx, exists, both includes (ptr is sender-dependent)
    expect(asked.slice(1).sort()).toEqual([
      'A mail.test',
      'A mail.test.check.test',
      'MX mail.test',
      'TXT one.test',
      'TXT two.test',
    ]);
    await release();
    // AAAA after an empty A; the next level of includes and the redirect (exists asks A only,
    // RFC 7208 §5.7; the %{i} include depends on the sender)
    expect(asked.slice(6).sort()).toEqual(['AAAA mail.test', 'TXT deep.test', 'TXT three.test']);
    await release();
    // three.test includes mail.test again: a loop, not followed
    expect(asked.slice(9)).toEqual(['A v6only.test']);
    await release();
    expect(asked.slice(10)).toEqual(['AAAA v6only.test']);
    await release();
    const result = await done;
    expect(result.lookupCount).toBe(11);
    expect(new Set(asked).size).toBe(asked.length);
  });

  it('reports in record order whichever answer comes first', async () => {
    const direct = await checkSpf('mail.test', lab({ txt: tree }).lookups);
    // one.test (the first include) now answers last, after its sibling's whole subtree
    const { lookups } = lab({ txt: tree });
    const oneLast: SpfLookups = {
      ...lookups,
      txt: (name) => (name === 'one.test' ? delayed(lookups.txt(name)) : lookups.txt(name)),
    };
    expect(await checkSpf('mail.test', oneLast)).toEqual(direct);
    expect(direct.lookupTree?.children.map((c) => c.domain)).toEqual(['one.test', 'two.test']);
    expect(direct.notEvaluated[0]).toContain('%{i}');
    expect(direct.notEvaluated.at(-1)).toContain('ptr');
  });

  it('follows the depth and question bounds, and reports a failure below the root as temperror', async () => {
    const failing = lab({
      txt: {
        'mail.test': ['v=spf1 include:down.test redirect=ignored.test -all'],
        'down.test': new ProbeError('SERVFAIL', '127.0.0.1:53', 'SERVFAIL'),
      },
    });
    const failed = await checkSpf('mail.test', failing.lookups);
    expect(failing.asked).toEqual(['TXT mail.test', 'TXT down.test']);
    expect(failed.evaluation).toBe('temperror');

    const chain: Zone = {};
    for (let i = 0; i < 20; i++) chain[`c${i}.test`] = [`v=spf1 include:c${i + 1}.test -all`];
    const deep = lab({ txt: chain });
    await checkSpf('c0.test', deep.lookups, { maxQueries: 30, maxDepth: 3 });
    expect(deep.asked).toEqual(['TXT c0.test', 'TXT c1.test', 'TXT c2.test', 'TXT c3.test']);
    const budget = lab({ txt: chain });
    await checkSpf('c0.test', budget.lookups, { maxQueries: 2, maxDepth: 10 });
    expect(budget.asked).toEqual(['TXT c0.test', 'TXT c1.test']);
  });
});

/** `answer`, settled a few turns of the event loop later than it would be. */
async function delayed<T>(answer: Promise<T>): Promise<T> {
  const value = await answer;
  await new Promise((resolve) => setTimeout(resolve, 5));
  return value;
}
