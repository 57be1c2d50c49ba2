import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '#server/admin/run-admin.ts';
import { startStripeFake, type StripeFake } from '#tests/support/stripe-fake.ts';

let fake: StripeFake;
beforeAll(async () => {
  fake = await startStripeFake();
});
afterAll(() => fake.close());

async function admin(argv: string[], environment: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdmin(argv, {
    io: { out: (line) => out.push(line), err: (line) => err.push(line) },
    environment: {
      LOG_LEVEL: 'silent',
      STRIPE_SECRET_KEY: 'sk_test_admin_command',
      STRIPE_API_BASE_URL: fake.url,
      ...environment,
    },
    openDatabase: () => Promise.reject(new Error('stripe sync must not open the database')),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const writes = () => fake.requests.filter((request) => request.method !== 'GET').length;

describe('npm run admin -- stripe sync', () => {
  it('explains itself, --dry-run included', async () => {
    const help = await admin(['stripe', 'sync', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('Usage: npm run admin -- stripe sync [options]');
    expect(help.out).toMatch(/--dry-run\s+Read Stripe and list what would be created or updated/);
    expect(help.out).toContain('only products and prices');
    const overview = await admin(['--help']);
    expect(overview.out).toMatch(/stripe sync \[options\]\s+Create or update Stripe's products/);
  });

  it('a dry run lists what it would create and writes nothing', async () => {
    const dry = await admin(['stripe', 'sync', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(writes()).toBe(0);
    expect(dry.out).toMatch(/^product\s+orgsmith_pro\s+orgsmith_pro\s+would create$/m);
    expect(dry.out).toMatch(/^price\s+orgsmith_pro_yearly_eur\s+–\s+would create$/m);
    expect(dry.out).toContain('Dry run: 15 of 15 would change; nothing was written.');
  });

  it('syncs, then a dry run names only the price that drifted', async () => {
    const sync = await admin(['stripe', 'sync']);
    expect(sync.code).toBe(0);
    expect(sync.out).toMatch(/^price\s+orgsmith_pro_yearly_eur\s+price_\S+\s+created$/m);
    expect(sync.out).toContain('15 changed.');

    const drifted = [...fake.prices.values()].find(
      (price) => price.lookup_key === 'orgsmith_starter_monthly_eur',
    );
    if (!drifted) throw new Error('price missing');
    drifted.unit_amount = 100;
    const before = writes();
    const dry = await admin(['stripe', 'sync', '--dry-run']);
    expect(writes()).toBe(before);
    expect(dry.out).toMatch(
      new RegExp(`^price\\s+orgsmith_starter_monthly_eur\\s+${drifted.id}\\s+would update$`, 'm'),
    );
    expect(dry.out).toContain('Dry run: 1 of 15 would change; nothing was written.');
    expect(drifted.active).toBe(true);
  });

  it('without a Stripe key it says there is nothing to sync', async () => {
    const result = await admin(['stripe', 'sync'], { STRIPE_SECRET_KEY: '' });
    expect(result.code).toBe(1);
    expect(result.err).toContain('STRIPE_SECRET_KEY is not set');
  });
});
