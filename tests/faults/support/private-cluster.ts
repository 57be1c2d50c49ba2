import { execFileSync } from 'node:child_process';
import { freePort } from '#tests/support/free-port.ts';

/**
 * A PostgreSQL cluster of one test's own (Debian's `pg_createcluster`, trust authentication on a
 * free port), so that stopping and starting it with `pg_ctlcluster` takes nothing away from the
 * other files of the suite, which run beside it on the machine's `main` cluster (decision 200).
 */
export interface PrivateCluster {
  version: string;
  name: string;
  port: number;
  /** The cluster's own `postgres` database; the service migrates into it. */
  url: string;
  stop(): void;
  start(): void;
  ready(): boolean;
  drop(): void;
}

/** The PostgreSQL version the machine's clusters run (Debian: `pg_lsclusters`). */
function clusterVersion(): string {
  const out = execFileSync('pg_lsclusters', ['--no-header'], { encoding: 'utf8' });
  const version = out.trim().split(/\s+/)[0];
  if (!version) throw new Error('no PostgreSQL cluster found');
  return version;
}

/** Drops the clusters of earlier runs whose process is gone (killed before its `finally`). */
function dropOrphans(version: string): void {
  const out = execFileSync('pg_lsclusters', ['--no-header'], { encoding: 'utf8' });
  for (const line of out.trim().split('\n')) {
    const [lineVersion, name] = line.trim().split(/\s+/);
    const pid = /^orgsmith_faults_(\d+)_\d+$/.exec(name ?? '')?.[1];
    if (lineVersion !== version || !pid || processAlive(Number(pid))) continue;
    execFileSync('pg_dropcluster', [version, name ?? '', '--stop'], { stdio: 'ignore' });
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function createPrivateCluster(): Promise<PrivateCluster> {
  const version = clusterVersion();
  dropOrphans(version);
  const port = await freePort();
  const name = `orgsmith_faults_${process.pid}_${port}`;
  const ctl = (action: 'start' | 'stop') =>
    execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, name, action]);
  execFileSync(
    'pg_createcluster',
    [version, name, '-p', String(port), '--start', '--', '--auth=trust'],
    { stdio: 'ignore' },
  );
  const cluster: PrivateCluster = {
    version,
    name,
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => ctl('stop'),
    start: () => ctl('start'),
    ready() {
      try {
        execFileSync('pg_isready', ['-h', '127.0.0.1', '-p', String(port), '-q']);
        return true;
      } catch {
        return false;
      }
    },
    drop: () => execFileSync('pg_dropcluster', [version, name, '--stop'], { stdio: 'ignore' }),
  };
  return cluster;
}
