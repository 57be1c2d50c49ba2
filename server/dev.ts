import { createServer as createHttpServer } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { ServerBuild } from 'react-router';
import { createServer as createViteServer } from 'vite';
import { buildApp } from './app.ts';
import { buildConsoleApp } from './console-app.ts';
import { parseEnv } from './env.ts';
import {
  consoleHostsOf,
  listenHostsOf,
  listenOn,
  listeningMessage,
} from './platform/http/listen.ts';
import { createLogger } from './platform/logger.ts';
import { createRuntime } from './runtime.ts';
import { nearMissWarning } from './platform/startup/near-miss-variables.ts';
import { refuseStart } from './platform/startup/startup-refusal.ts';

function isServerBuild(value: unknown): value is ServerBuild {
  return typeof value === 'object' && value !== null && 'routes' in value && 'entry' in value;
}

// The data directory's files are this user's alone (decision 157).
process.umask(0o077);
/** Development: Vite serves client modules with HMR; everything else goes to the same Hono app. */
// A setting it refuses is one line on stderr, as in production (decision 217).
const env = (() => {
  try {
    return parseEnv({ NODE_ENV: 'development', ...process.env });
  } catch (error) {
    return refuseStart(error);
  }
})();
const logger = createLogger(env.LOG_LEVEL);
if (env.nearMisses.length > 0) logger.warn(nearMissWarning(env.nearMisses));
const vite = await createViteServer({ server: { middlewareMode: true } });
const runtime = await createRuntime(env, logger).catch((error: unknown) => refuseStart(error));
const serverBuild = async () => {
  const build: unknown = await vite.ssrLoadModule('virtual:react-router/server-build');
  if (!isServerBuild(build)) throw new Error('virtual:react-router/server-build did not load');
  return build;
};
const app = buildApp(runtime.deps, { serverBuild });
const listener = getRequestListener(app.fetch);
const consoleListener = getRequestListener(buildConsoleApp(runtime.deps, { serverBuild }).fetch);
const stopWorkers = runtime.startWorkers();
// Loopback only while payments are test payments for want of keys (decision 156).
const listening = await listenOn(listenHostsOf(env), env.PORT, () =>
  createHttpServer((req, res) => {
    vite.middlewares(req, res, () => void listener(req, res));
  }),
);
logger.info(
  { hosts: listening.addresses, url: env.PUBLIC_BASE_URL },
  `dev server ${listeningMessage(listening, env)}`,
);
// The operator console's own listener (decision 226).
const consoleListening = await listenOn(consoleHostsOf(env), env.CONSOLE_PORT, () =>
  createHttpServer((req, res) => {
    vite.middlewares(req, res, () => void consoleListener(req, res));
  }),
);
logger.info({ url: env.CONSOLE_ORIGIN }, 'dev operator console listening');
const shutdown = async () => {
  for (const server of [...listening.servers, ...consoleListening.servers]) server.close();
  await vite.close();
  await stopWorkers();
  await runtime.close();
  process.exit(0);
};
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
