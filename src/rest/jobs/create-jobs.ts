/**
 * The jobs feature as the app mounts it (docs/contract/jobs.md): the embedded store in
 * `<server.dataDir>/jobs/` (or, with `store.redisUrl`, Redis and one BullMQ queue for every instance),
 * this process's runner, and the handler of /api/v1/jobs.
 */
import type { AuthOutcome } from '../../platform/auth.js';
import type { Services } from '../../services.js';
import type { JobsPort } from '../../graphql/jobs/jobs-port.js';
import type { NetdiagYoga } from '../../graphql-server/yoga.js';
import { createFileJobStore } from './file-job-store.js';
import { createJobService, type JobService } from './job-service.js';
import { lazyRedisJobService } from './lazy-job-service.js';
import { createJobOperations } from './job-operations.js';
import { createJobsHandler, jobsPathOf } from './jobs-handler.js';

export interface Jobs {
  /** true for the paths under /api/v1/jobs */
  handles(pathname: string): boolean;
  handle(request: Request, url: URL, auth: AuthOutcome): Promise<Response>;
  readonly service: JobService;
  /** the same operations for the GraphQL fields (src/graphql/jobs/) */
  readonly operations: JobsPort;
  stop(): void;
}

export function createJobs(yoga: NetdiagYoga, services: Services): Jobs {
  // With store.redisUrl every instance shares the jobs and takes items from one queue; else the embedded store.
  const { redisUrl } = services.config.store;
  const store = redisUrl ? null : createFileJobStore(services.config.server.dataDir);
  const service = store ? createJobService(yoga, services, store) : lazyRedisJobService(yoga, services, redisUrl!);
  const operations = createJobOperations(service, services);
  const handle = createJobsHandler(service, operations);
  return {
    handles: (pathname) => pathname.startsWith('/api/v1/jobs') && jobsPathOf(pathname) !== null,
    handle,
    service,
    operations,
    stop() {
      service.stop();
      store?.close();
    },
  };
}
