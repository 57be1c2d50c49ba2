import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { metricsListenerApp } from './metrics-routes.ts';
import type { ServiceMetrics } from './service-metrics.ts';

export interface MetricsListener {
  /** `http://host:port`, as bound. */
  url: string;
  close(): Promise<void>;
}

/**
 * `METRICS_PORT`: a listener of its own that serves only `/metrics`, on loopback unless
 * `METRICS_HOST` says otherwise (decision 131). Resolves once it listens; rejects when it cannot.
 */
export function startMetricsListener(options: {
  metrics: ServiceMetrics;
  port: number;
  hostname: string;
  token: string | undefined;
}): Promise<MetricsListener> {
  const app = metricsListenerApp(options.metrics, options.token);
  return new Promise((resolve, reject) => {
    const server = serve(
      { fetch: app.fetch, port: options.port, hostname: options.hostname },
      (info: AddressInfo) => {
        server.off('error', reject);
        const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
        resolve({
          url: `http://${host}:${info.port}`,
          close: () =>
            new Promise((done) => {
              server.close(() => done());
              if ('closeIdleConnections' in server) server.closeIdleConnections();
            }),
        });
      },
    );
    server.once('error', reject);
  });
}
