import path from 'node:path';

/**
 * The local socket of a server running on the embedded database (decisions 130 and 189), where
 * the admin CLI runs its commands and asks for backups, since only that process may open the
 * database. In `run/` of DATA_DIR, a directory for the server's user alone.
 */
export function adminSocketPath(dataDir: string): string {
  return path.resolve(dataDir, 'run', 'admin.sock');
}
