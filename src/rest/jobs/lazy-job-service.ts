/**
 * The Redis job service, imported only with `store.redisUrl`: BullMQ and its dependencies are code every
 * worker would otherwise load and keep at start, though only a deployment with Redis uses them (the build
 * splits at this import, docs/architecture.md "Dependencies").
 */
import type { Services } from '../../services.js';
import type { NetdiagYoga } from '../../graphql-server/yoga.js';
import type { JobService } from './job-service.js';

export function lazyRedisJobService(yoga: NetdiagYoga, services: Services, redisUrl: string): JobService {
  const loaded = import('./redis/redis-job-service.js').then((m) => m.createRedisJobService(yoga, services, redisUrl));
  // an import that fails is reported by every call; this keeps it from being an unhandled rejection too
  loaded.catch((e) => services.logger.error('jobs_unavailable', { message: (e as Error).message }));
  return {
    submit: async (identity, submission) => (await loaded).submit(identity, submission),
    get: async (id, keyId) => (await loaded).get(id, keyId),
    list: async (keyId) => (await loaded).list(keyId),
    cancel: async (id, keyId) => (await loaded).cancel(id, keyId),
    async *results(record, after) {
      yield* (await loaded).results(record, after);
    },
    stats: async () => (await loaded).stats(),
    stop: () => void loaded.then((service) => service.stop()).catch(() => undefined),
  };
}
