import type { AppDeps } from '../deps.ts';
import type { DatabaseHandle } from '../platform/db/client.ts';
import { runAdmin } from './run-admin.ts';
import type { AdminCommandRunner } from './serve-admin-socket.ts';

/**
 * How the server runs an admin command for the CLI (decision 189): the same `runAdmin` as
 * `npm run admin --`, on the server's open database (never closed by the command), with its
 * environment, clock and ports (decision 232); the commands are loaded on the first request
 * (decision 135).
 */
export function adminCommandRunner(deps: AppDeps): AdminCommandRunner {
  const handle: DatabaseHandle = { ...deps.database, close: async () => undefined };
  return async (request, io, files) => {
    let command: string | undefined;
    const code = await runAdmin(request.argv, {
      io,
      files,
      cwd: request.cwd,
      env: deps.env,
      openDatabase: async () => handle,
      now: deps.clock,
      // The commands' ports are the server's own: one set of dependencies (decision 232).
      ports: deps,
      inServer: true,
      ...(request.user ? { user: request.user } : {}),
      onCommand: (name) => (command = name),
    });
    return { code, command };
  };
}
