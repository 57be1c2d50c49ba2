import { execFileSync } from 'node:child_process';
import { freePort } from '#tests/support/free-port.ts';

/**
 * A PostgreSQL cluster of one test's own (Debian's `pg_createcluster`, trust authentication on a
 * free port), so that stopping and starting it with `pg_ctlcluster` takes nothing away from the
 * other files of the suite, which run beside it on the machine's `main` cluster (decision 200).
 */
export interface PrivateCluster {
  /** The cluster's own `postgres` database; the service migrates into it. */
  url: string;
  stop(): void;
  start(): void;
  ready(): boolean;
  drop(): void;
}

const NAME = /^orgsmith_faults_(\d+)_\d+$/;

export async function createPrivateCluster(): Promise<PrivateCluster> {
  // `pg_lsclusters`: one line per cluster, "<version> <name> <port> <status> …".
  const clusters = execFileSync('pg_lsclusters', ['--no-header'], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/));
  const version = clusters[0]?.[0];
  if (!version) throw new Error('no PostgreSQL cluster found');
  // Clusters of earlier runs whose process was killed before its `finally` dropped them.
  for (const [orphanVersion = '', orphan = ''] of clusters) {
    const pid = NAME.exec(orphan)?.[1];
    if (pid && !processAlive(Number(pid))) {
      execFileSync('pg_dropcluster', [orphanVersion, orphan, '--stop'], { stdio: 'ignore' });
    }
  }

  const port = await freePort();
  const name = `orgsmith_faults_${process.pid}_${port}`;
  const ctl = (action: 'start' | 'stop') =>
    execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, name, action]);
  execFileSync(
    'pg_createcluster',
    [version, name, '-p', String(port), '--start', '--', '--auth=trust'],
    { stdio: 'ignore' },
  );
  return {
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
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
