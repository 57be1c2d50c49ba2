import './platform/production-mode.ts';
import path from 'node:path';
import type { Server, ServerResponse } from 'node:http';
import { pathToFileURL } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import type { ServerBuild } from 'react-router';
import { buildService } from './app.ts';
import { buildConsoleApp } from './console-app.ts';
import { parseEnv } from './env.ts';
import { createLogger } from './platform/logger.ts';
import { startMetricsListener } from './metrics/metrics-listener.ts';
import { createLimitedServer } from './platform/http/connection-limits.ts';
import {
  consoleHostsOf,
  listenHostsOf,
  listenOn,
  listeningMessage,
} from './platform/http/listen.ts';
import { createRuntime } from './runtime.ts';
import { nearMissWarning } from './platform/startup/near-miss-variables.ts';
import { listenRefusal, refuseStart, StartupRefusal } from './platform/startup/startup-refusal.ts';

/**
 * Production entry: reads the environment, opens the database, listens, shuts down gracefully.
 * Anything that stops the start is one line on stderr naming the variable at fault and exit code
 * 1, never a stack trace (decision 217).
 */
async function main(): Promise<void> {
  // Files this process creates are its own alone: the data directory holds the signing keys,
  // SECRET_KEY and every customer's address (decision 157).
  process.umask(0o077);
  let env;
  try {
    env = parseEnv();
  } catch (error) {
    refuseStart(error);
  }
  const verbose = env.LOG_LEVEL === 'debug' || env.LOG_LEVEL === 'trace';
  const logger = createLogger(env.LOG_LEVEL);
  if (env.nearMisses.length > 0) logger.warn(nearMissWarning(env.nearMisses));
  // Beside this module, not the working directory: `node /srv/orgsmith/build/service/main.js`
  // starts from anywhere (the bundle rewrites `import.meta.dirname` to this source's folder).
  const buildDir = path.resolve(import.meta.dirname, '..', 'build');
  const serverEntry = path.join(buildDir, 'server/index.js');
  const serverBuild: ServerBuild = await import(pathToFileURL(serverEntry).href).catch(
    (error: unknown) =>
      refuseStart(
        new StartupRefusal(
          'build',
          `No production build at ${serverEntry}: run \`npm run build\` first` +
            ` (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
        ),
        verbose,
      ),
  );

  const runtime = await createRuntime(env, logger).catch((error: unknown) =>
    refuseStart(error, verbose),
  );
  let stopping = false;
  const { app, storedPages } = buildService(
    { ...runtime.deps, draining: () => stopping },
    { serverBuild, clientDir: path.join(buildDir, 'client') },
  );
  const consoleApp = buildConsoleApp(
    { ...runtime.deps, draining: () => stopping },
    { serverBuild, clientDir: path.join(buildDir, 'client') },
  );
  const stopWorkers = runtime.startWorkers();
  const honoListener = getRequestListener(app.fetch);
  const consoleListener = getRequestListener(consoleApp.fetch);
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
  }).catch((error: unknown) =>
    refuseStart(listenRefusal(error, 'PORT', env.PORT, env.HOST), verbose),
  );
  logger.info(
    { port: listening.port, hosts: listening.addresses, url: env.PUBLIC_BASE_URL },
    listeningMessage(listening, env),
  );
  // The operator console on a listener of its own, loopback unless CONSOLE_HOST (decision 226).
  const consoleListening = await listenOn(consoleHostsOf(env), env.CONSOLE_PORT, () => {
    const server = createLimitedServer(env.connectionLimits, (incoming, outgoing) => {
      void consoleListener(incoming, outgoing);
    });
    server.prependListener('request', (_request: unknown, response: ServerResponse) => {
      if (stopping) response.setHeader('Connection', 'close');
      else response.once('finish', () => stopping && setImmediate(closeIdle));
    });
    return server;
  }).catch((error: unknown) =>
    refuseStart(listenRefusal(error, 'CONSOLE_PORT', env.CONSOLE_PORT, env.CONSOLE_HOST), verbose),
  );
  servers = [...listening.servers, ...consoleListening.servers];
  logger.info(
    { port: consoleListening.port, hosts: consoleListening.addresses, url: env.CONSOLE_ORIGIN },
    `operator console listening on ${consoleListening.addresses.join(' and ')}`,
  );
  const metricsListener =
    env.METRICS_PORT === undefined || env.METRICS_HOST === undefined
      ? undefined
      : await startMetricsListener({
          metrics: runtime.deps.metrics,
          port: env.METRICS_PORT,
          hostname: env.METRICS_HOST,
          token: env.METRICS_TOKEN,
        }).catch((error: unknown) =>
          refuseStart(
            listenRefusal(error, 'METRICS_PORT', env.METRICS_PORT, env.METRICS_HOST),
            verbose,
          ),
        );
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
