import type { Env } from './env.ts';
import type { FeaturePorts } from './features/feature-ports.ts';
import type { ServiceMetrics } from './metrics/service-metrics.ts';

/**
 * Everything the app needs from outside, passed in explicitly (tests pass their own). It extends
 * the widest layer's ports (decision 176): a layer names what it uses, the compiler checks that
 * this gives it.
 */
export interface AppDeps extends FeaturePorts {
  env: Env;
  /** What `/metrics` reports; `metricsOff` unless METRICS_TOKEN or METRICS_PORT is set (decision 131). */
  metrics: ServiceMetrics;
  /** True once the process was told to stop: `/readyz` answers 503 while requests drain (decision 139). */
  draining?: () => boolean;
}
