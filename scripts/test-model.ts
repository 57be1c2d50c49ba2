/**
 * `npm run test:model -- [--runs N] [--seed N] [--check quota,person]`: the model test of the
 * licence invariants (tests/model/) with more generated sequences than CI's fixed-seed run. A
 * failure prints fast-check's seed and path; pass the seed back to replay it.
 */
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '1000' },
    seed: { type: 'string', default: String(Date.now() % 2_147_483_647) },
    check: { type: 'string' },
  },
});
for (const [name, value] of [
  ['runs', values.runs],
  ['seed', values.seed],
]) {
  if (!/^\d+$/.test(value ?? '')) {
    console.error(`--${name} must be a whole number, not ${value}`);
    process.exit(2);
  }
}
console.log(`model test: ${values.runs} runs, seed ${values.seed}`);
const result = spawnSync('npx', ['vitest', 'run', 'tests/model', '--testTimeout', '0'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    MODEL_RUNS: values.runs,
    MODEL_SEED: values.seed,
    ...(values.check ? { MODEL_CHECK: values.check } : {}),
  },
});
process.exit(result.status ?? 1);
