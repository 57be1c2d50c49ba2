/**
 * `npm run test:model -- [--runs N] [--seed N] [--check quota,person] [--workers N]`: the model
 * test of the licence invariants (tests/model/) with more generated sequences than CI's
 * fixed-seed run. The runs are shared among `--workers` processes (default: one per core, at
 * most the runs), worker i drawing its sequences from seed + i; each worker's output goes to
 * `reports/model-worker-<i>.log`. A failure prints fast-check's seed and path (in that log, and
 * its tail here); pass the worker's seed back with `--workers 1` to replay it.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '1000' },
    seed: { type: 'string', default: String(Date.now() % 2_147_483_647) },
    check: { type: 'string' },
    workers: { type: 'string', default: String(availableParallelism()) },
  },
});
const numbers: Record<string, number> = {};
for (const [name, value] of [
  ['runs', values.runs],
  ['seed', values.seed],
  ['workers', values.workers],
] as const) {
  if (!/^\d+$/.test(value ?? '') || (name !== 'seed' && Number(value) < 1)) {
    console.error(
      `--${name} must be a whole number${name === 'seed' ? '' : ' of at least 1'}, not ${value}`,
    );
    process.exit(2);
  }
  numbers[name] = Number(value);
}
const runs = numbers.runs ?? 1000;
const seed = numbers.seed ?? 0;
const workers = Math.min(numbers.workers ?? 1, runs);

console.log(`model test: ${runs} runs, seed ${seed}, ${workers} worker(s)`);
mkdirSync('reports', { recursive: true });
const started = Date.now();

/** One vitest process with its share of the runs; resolves to its exit code. */
function worker(index: number, share: number): Promise<number> {
  const log = `reports/model-worker-${index}.log`;
  const out = createWriteStream(log);
  const child = spawn('npx', ['vitest', 'run', 'tests/model', '--testTimeout', '0'], {
    stdio: workers === 1 ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      MODEL_RUNS: String(share),
      MODEL_SEED: String(seed + index),
      ...(values.check ? { MODEL_CHECK: values.check } : {}),
    },
  });
  child.stdout?.pipe(out);
  child.stderr?.pipe(out);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      out.end(() => {
        const seconds = Math.round((Date.now() - started) / 1000);
        const verdict = code === 0 ? 'passed' : `FAILED (exit ${code})`;
        console.log(
          `worker ${index}: ${share} runs, seed ${seed + index}: ${verdict} after ${seconds} s`,
        );
        if (code !== 0 && workers > 1) {
          console.log(readFileSync(log, 'utf8').split('\n').slice(-80).join('\n'));
        }
        resolve(code ?? 1);
      });
    });
  });
}

const shares = Array.from(
  { length: workers },
  (_, index) => Math.floor(runs / workers) + (index < runs % workers ? 1 : 0),
);
const codes = await Promise.all(shares.map((share, index) => worker(index, share)));
process.exit(codes.every((code) => code === 0) ? 0 : 1);
