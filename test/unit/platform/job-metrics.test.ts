/** The job figures on /metrics (docs/jobs.md): jobs by status, items finished, items waiting. */
import { AggregatorRegistry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../../src/platform/metrics.js';

const figures = (queued: number, running: number, itemsFinished: number, queueDepth: number) => async () => ({
  jobs: { queued, running },
  itemsFinished,
  queueDepth,
});

describe('job metrics', () => {
  it('reports what the jobs say at each scrape', async () => {
    const metrics = createMetrics({ tools: [] });
    metrics.watchJobs(figures(2, 1, 40, 17), false);
    const text = await metrics.registry.metrics();
    expect(text).toContain('netdiag_jobs{status="queued"} 2');
    expect(text).toContain('netdiag_jobs{status="running"} 1');
    expect(text).toContain('netdiag_job_items_finished_total 40');
    expect(text).toContain('netdiag_job_queue_depth 17');
  });

  it("sums the workers' own figures on the embedded store, and takes the deployment's once on Redis", async () => {
    const sumOf = async (shared: boolean) => {
      const workers = [figures(1, 1, 10, 5), figures(2, 0, 20, 5)].map(async (read) => {
        const metrics = createMetrics({ tools: [] });
        metrics.watchJobs(read, shared);
        return metrics.registry.getMetricsAsJSON();
      });
      const aggregated = AggregatorRegistry.aggregate(await Promise.all(workers));
      return aggregated.metrics();
    };
    const embedded = await sumOf(false);
    expect(embedded).toContain('netdiag_jobs{status="queued"} 3');
    expect(embedded).toContain('netdiag_job_queue_depth 10');
    expect(embedded).toContain('netdiag_job_items_finished_total 30');
    const shared = await sumOf(true);
    expect(shared).toContain('netdiag_jobs{status="queued"} 2');
    expect(shared).toContain('netdiag_job_queue_depth 5');
    // each worker counts the items it finished itself: summed either way
    expect(shared).toContain('netdiag_job_items_finished_total 30');
  });
});
