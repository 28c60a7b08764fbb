/**
 * The journaled embedded ledger (docs/jobs.md "Durability"): charges and refunds survive a restart,
 * a charge id handed out before it still refunds after it, and charges expire as they would have.
 */
import { appendFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createJournaledQuotaStore } from '../../../src/platform/quota-journal.js';

const policy = { credits: 10, windowSeconds: 60 };

function journal(): string {
  return join(mkdtempSync(join(tmpdir(), 'nd-ledger-')), 'ledger-quota.ndjson');
}

describe('journaled ledger', () => {
  it('keeps charges and refunds across a restart, refunding by an id from before it', async () => {
    const path = journal();
    let t = 1_000_000;
    const first = createJournaledQuotaStore(policy, path, () => t);
    const job = await first.charge('k', 6);
    expect(job.remaining).toBe(4);
    await first.charge('other', 2);
    await first.close();

    t += 1_000;
    const second = createJournaledQuotaStore(policy, path, () => t);
    expect((await second.charge('k', 1)).remaining).toBe(3);
    // a job resumed after the restart gives back what its items did not use, by its charge's id
    await second.refund('k', job.chargeId!, 4);
    expect((await second.charge('k', 0)).remaining).toBe(7);
    await second.close();

    t += 1_000;
    const third = createJournaledQuotaStore(policy, path, () => t);
    expect((await third.charge('k', 0)).remaining).toBe(7);
    expect((await third.charge('other', 0)).remaining).toBe(8);
    await third.close();
  });

  it('drops charges whose window has passed, and a line cut by a crash', async () => {
    const path = journal();
    let t = 5_000_000;
    const first = createJournaledQuotaStore(policy, path, () => t);
    await first.charge('k', 5);
    t += 30_000;
    await first.charge('k', 3);
    await first.close();
    appendFileSync(path, '{"c":["k",5030000,');

    t += 31_000; // the first charge is past its 60 s window, the second is not
    const second = createJournaledQuotaStore(policy, path, () => t);
    expect((await second.charge('k', 0)).remaining).toBe(7);
    await second.close();
    // rewritten at start with the live charge only
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(1);
  });
});
