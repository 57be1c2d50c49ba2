import './platform/production-mode.ts';
import path from 'node:path';
import type { Server, ServerResponse } from 'node:http';
import { pathToFileURL } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import type { ServerBuild } from 'react-router';
import { buildService } from './app.ts';
import { parseEnv } from './env.ts';
import { createLogger } from './platform/logger.ts';
import { startMetricsListener } from './metrics/metrics-listener.ts';
import { DataDirNotPrivate } from './platform/data-dir/make-data-dir-private.ts';
import { createLimitedServer } from './platform/http/connection-limits.ts';
import { listenHostsOf, listenOn, listeningMessage } from './platform/http/listen.ts';
import { createRuntime } from './runtime.ts';

/** Production entry: reads the environment, opens the database, listens, shuts down gracefully. */
async function main(): Promise<void> {
  // Files this process creates are its own alone: the data directory holds the signing keys,
  // SECRET_KEY and every customer's address (decision 157).
  process.umask(0o077);
  let env;
  try {
    env = parseEnv();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
  const logger = createLogger(env.LOG_LEVEL);
  const buildDir = path.resolve('build');
  const serverBuild: ServerBuild = await import(
    pathToFileURL(path.join(buildDir, 'server/index.js')).href
  ).catch((error: unknown) => {
    logger.fatal({ err: error }, 'no production build found: run `npm run build` first');
    process.exit(1);
  });

  const runtime = await createRuntime(env, logger).catch((error: unknown) => {
    if (!(error instanceof DataDirNotPrivate)) throw error;
    console.error(error.message);
    process.exit(1);
  });
  let stopping = false;
  const { app, storedPages } = buildService(
    { ...runtime.deps, draining: () => stopping },
    { serverBuild, clientDir: path.join(buildDir, 'client') },
  );
  const stopWorkers = runtime.startWorkers();
  const honoListener = getRequestListener(app.fetch);
  let servers: Server[] = [];
  const closeIdle = () => {
    for (const server of servers) server.closeIdleConnections();
  };
  // One server per address (loopback is two, decision 156), each answering the same way.
  const listening = await listenOn(listenHostsOf(env), env.PORT, () => {
    // Stored pages are answered before Hono makes a request of them (decision 150); slow
    // clients are cut off and connections capped (decision 206).
    const server = createLimitedServer(env.connectionLimits, (incoming, outgoing) => {
      if (!storedPages?.(incoming, outgoing)) void honoListener(incoming, outgoing);
    });
    server.prependListener('request', (_request: unknown, response: ServerResponse) => {
      if (stopping) response.setHeader('Connection', 'close');
      // A request that was under way when the stop began: its connection goes once it is answered.
      else response.once('finish', () => stopping && setImmediate(closeIdle));
    });
    return server;
  }).catch((error: unknown) => {
    logger.fatal({ err: error }, `cannot listen on port ${env.PORT}`);
    process.exit(1);
  });
  servers = listening.servers;
  logger.info(
    { port: listening.port, hosts: listening.addresses, url: env.PUBLIC_BASE_URL },
    listeningMessage(listening, env),
  );
  const metricsListener =
    env.METRICS_PORT === undefined || env.METRICS_HOST === undefined
      ? undefined
      : await startMetricsListener({
          metrics: runtime.deps.metrics,
          port: env.METRICS_PORT,
          hostname: env.METRICS_HOST,
          token: env.METRICS_TOKEN,
        }).catch((error: unknown) => {
          logger.fatal({ err: error }, 'cannot listen on METRICS_PORT');
          process.exit(1);
        });
  if (metricsListener) logger.info({ url: `${metricsListener.url}/metrics` }, 'metrics listening');

  /**
   * A planned stop fails no request (decision 139): no new connections (a proxy's connect fails
   * and it retries another instance), `/readyz` answers 503, every request already here is
   * answered, each with `Connection: close` so a keep-alive connection ends after its answer
   * instead of being cut under a request, and idle connections are closed.
   */
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;

    logger.info({ signal }, 'shutting down');
    // Stopping the workers writes the rate-limit hits still counted in memory (decision 085).
    let finishing = false;
    const finish = async (code: number) => {
      if (finishing) return;
      finishing = true;
      await stopWorkers().catch((error: unknown) =>
        logger.error({ err: error }, 'stopping the workers failed'),
      );
      await runtime.close().catch(() => undefined);
      logger.info('stopped');
      process.exit(code);
    };
    const force = setTimeout(() => {
      logger.warn('requests still open after 10 s: stopping anyway');
      void finish(1);
      setTimeout(() => process.exit(1), 5_000).unref();
    }, 10_000);
    force.unref();
    void metricsListener?.close();
    void Promise.all(
      servers.map((server) => new Promise((closed) => server.close(() => closed(undefined)))),
    ).then(() => finish(0));
    // Idle keep-alive connections would hold close() open.
    closeIdle();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

await main();
