import type { ServicePorts } from '#server/platform/ports/service-ports.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { defineDomain } from '../domain/define-domain.ts';
import { instanceHeartbeatJob, type InstanceRegistry } from '../instances/instance-registry.ts';
import { rateLimitJobs, type RateLimiter } from './rate-limiter.ts';

interface RateLimitJobContext {
  deps: {
    database: DatabaseHandle;
    rateLimiter: RateLimiter;
    instances: InstanceRegistry;
    clock: () => Date;
  };
}

/**
 * Rate limits: writing the hits counted in memory, sweeping the windows that ended, and this
 * instance's heartbeat in `live_instances`, by which the limits' shares are divided (decision 195).
 */
export const rateLimitDomain = defineDomain<ServicePorts, RateLimitJobContext>({
  name: 'rate-limit',
  jobs: ({ deps }) => [
    instanceHeartbeatJob(deps.instances),
    ...rateLimitJobs({ limiter: deps.rateLimiter, db: deps.database.db, clock: deps.clock }),
  ],
});
