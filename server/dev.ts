import { createServer as createHttpServer } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { ServerBuild } from 'react-router';
import { createServer as createViteServer } from 'vite';
import { buildApp } from './app.ts';
import { parseEnv } from './env.ts';
import { createLogger } from './logger.ts';
import { createRuntime } from './runtime.ts';

function isServerBuild(value: unknown): value is ServerBuild {
  return typeof value === 'object' && value !== null && 'routes' in value && 'entry' in value;
}

/** Development: Vite serves client modules with HMR; everything else goes to the same Hono app. */
const env = parseEnv({ NODE_ENV: 'development', ...process.env });
const logger = createLogger(env.LOG_LEVEL);
const vite = await createViteServer({ server: { middlewareMode: true } });
const runtime = await createRuntime(env, logger);
const app = buildApp(runtime.deps, {
  serverBuild: async () => {
    const build: unknown = await vite.ssrLoadModule('virtual:react-router/server-build');
    if (!isServerBuild(build)) throw new Error('virtual:react-router/server-build did not load');
    return build;
  },
});
const listener = getRequestListener(app.fetch);
const stopWorkers = runtime.startWorkers();
const server = createHttpServer((req, res) => {
  vite.middlewares(req, res, () => void listener(req, res));
});
server.listen(env.PORT, () => logger.info(`dev server on ${env.PUBLIC_BASE_URL}`));
const shutdown = async () => {
  server.close();
  await vite.close();
  await stopWorkers();
  await runtime.close();
  process.exit(0);
};
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
