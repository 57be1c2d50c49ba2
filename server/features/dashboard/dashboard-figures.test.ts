import { describe, expect, it } from 'vitest';
import {
  addMonths,
  daysBetween,
  monthsEndingWith,
  mrrMinorOf,
  mrrMovements,
  orgsPerDay,
  usagePerDay,
  termsAt,
  trialCohort,
  type SubscriptionHistory,
  type SubscriptionTerms,
} from './dashboard-figures.ts';

const at = (iso: string) => new Date(iso);
const terms = (
  currency: 'USD' | 'EUR',
  billingPeriod: 'monthly' | 'yearly',
  quantity: number,
  status = 'active',
  endedAt: string | null = null,
): SubscriptionTerms => ({ currency, billingPeriod, quantity, status, endedAt });

const created = (
  id: string,
  when: string,
  first: SubscriptionTerms,
  ...later: [string, SubscriptionTerms | null][]
) =>
  ({
    id,
    initial: null,
    changes: [
      { at: at(when), terms: first },
      ...later.map(([time, next]) => ({ at: at(time), terms: next })),
    ],
  }) satisfies SubscriptionHistory;

const from = at('2026-03-01T00:00:00Z');
const to = at('2026-04-01T00:00:00Z');

describe('MRR of one subscription', () => {
  it('is the list price net of VAT, a yearly one divided by 12 to the cent', () => {
    expect(mrrMinorOf(terms('USD', 'monthly', 5))).toBe(63_000);
    expect(mrrMinorOf(terms('USD', 'yearly', 10))).toBe(117_450); // 14,094 / 12
    expect(mrrMinorOf(terms('EUR', 'yearly', 10))).toBe(108_717); // 13,046 / 12 = 1,087.1666…
    expect(mrrMinorOf(terms('EUR', 'monthly', 4))).toBe(45_800);
  });

  it('counts active and past due, not trialing, cancelled, unpaid, ended, Starter or gone', () => {
    expect(mrrMinorOf(terms('USD', 'monthly', 4, 'past_due'))).toBe(49_500);
    for (const status of ['trialing', 'canceled', 'unpaid', 'incomplete']) {
      expect(mrrMinorOf(terms('USD', 'monthly', 4, status))).toBe(0);
    }
    expect(mrrMinorOf(terms('USD', 'monthly', 4, 'active', '2026-03-02T00:00:00Z'))).toBe(0);
    expect(mrrMinorOf(terms('USD', 'monthly', 3))).toBe(0);
    expect(mrrMinorOf(null)).toBe(0);
  });
});

describe('terms at an instant', () => {
  const history = created('a', '2026-02-10T00:00:00Z', terms('USD', 'monthly', 5), [
    '2026-03-12T00:00:00Z',
    terms('USD', 'monthly', 8),
  ]);
  it('are those of the last change strictly before it', () => {
    expect(termsAt(history, at('2026-02-10T00:00:00Z'))).toBeNull();
    expect(termsAt(history, at('2026-02-10T00:00:00.001Z'))?.quantity).toBe(5);
    expect(termsAt(history, at('2026-03-12T00:00:00Z'))?.quantity).toBe(5);
    expect(termsAt(history, to)?.quantity).toBe(8);
  });
  it('start from the initial terms of a subscription older than its history', () => {
    const old = { id: 'k', initial: terms('EUR', 'yearly', 8), changes: [] };
    expect(termsAt(old, from)).toEqual(terms('EUR', 'yearly', 8));
  });
});

describe('a known month of MRR movements (March 2026)', () => {
  const histories: SubscriptionHistory[] = [
    // USD
    created('upgraded', '2026-02-10T00:00:00Z', terms('USD', 'monthly', 5), [
      '2026-03-12T00:00:00Z',
      terms('USD', 'monthly', 8),
    ]),
    created('cancelled', '2026-02-02T00:00:00Z', terms('USD', 'monthly', 4), [
      '2026-03-20T00:00:00Z',
      terms('USD', 'monthly', 4, 'canceled', '2026-03-20T00:00:00Z'),
    ]),
    created('new-yearly', '2026-03-05T00:00:00Z', terms('USD', 'yearly', 10), [
      '2026-03-25T00:00:00Z',
      terms('USD', 'yearly', 25),
    ]),
    created('retrying', '2026-01-15T00:00:00Z', terms('USD', 'monthly', 6), [
      '2026-03-15T00:00:00Z',
      terms('USD', 'monthly', 6, 'past_due'),
    ]),
    created('trialing', '2026-03-03T00:00:00Z', terms('USD', 'monthly', 10, 'trialing')),
    created('in-and-out', '2026-03-02T00:00:00Z', terms('USD', 'monthly', 4), [
      '2026-03-09T00:00:00Z',
      terms('USD', 'monthly', 4, 'canceled', '2026-03-09T00:00:00Z'),
    ]),
    created('next-month', '2026-04-01T00:00:00Z', terms('USD', 'monthly', 5)),
    // EUR
    created('downgraded', '2026-01-20T00:00:00Z', terms('EUR', 'yearly', 10), [
      '2026-03-18T00:00:00Z',
      terms('EUR', 'yearly', 6),
    ]),
    created('new-monthly', '2026-03-07T00:00:00Z', terms('EUR', 'monthly', 4)),
    created('deleted', '2026-02-01T00:00:00Z', terms('EUR', 'monthly', 5), [
      '2026-03-30T00:00:00Z',
      null,
    ]),
    { id: 'before-the-log', initial: terms('EUR', 'yearly', 8), changes: [] },
  ];
  const [eur, usd] = mrrMovements(histories, from, to);

  it('reads every figure exactly, per currency', () => {
    expect(usd).toEqual({
      currency: 'USD',
      startMinor: 63_000 + 49_500 + 76_500,
      endMinor: 103_500 + 315_000 + 76_500,
      newMinor: 315_000,
      expansionMinor: 40_500,
      contractionMinor: 0,
      churnedMinor: 49_500,
      newCount: 1,
      expansionCount: 1,
      contractionCount: 0,
      churnedCount: 1,
      payingAtEnd: 3,
    });
    expect(eur).toEqual({
      currency: 'EUR',
      startMinor: 108_717 + 58_300 + 86_217,
      endMinor: 63_717 + 45_800 + 86_217,
      newMinor: 45_800,
      expansionMinor: 0,
      contractionMinor: 45_000,
      churnedMinor: 58_300,
      newCount: 1,
      expansionCount: 0,
      contractionCount: 1,
      churnedCount: 1,
      payingAtEnd: 3,
    });
  });

  it('new + expansion − contraction − churn = the change in MRR', () => {
    for (const row of [usd, eur]) {
      if (!row) throw new Error('missing currency');
      expect(row.newMinor + row.expansionMinor - row.contractionMinor - row.churnedMinor).toBe(
        row.endMinor - row.startMinor,
      );
    }
  });

  it('counts a change of currency as churn in one and new in the other', () => {
    const moved = created('moved', '2026-02-01T00:00:00Z', terms('USD', 'monthly', 4), [
      '2026-03-10T00:00:00Z',
      terms('EUR', 'monthly', 4),
    ]);
    expect(mrrMovements([moved], from, to)).toMatchObject([
      { currency: 'EUR', startMinor: 0, endMinor: 45_800, newMinor: 45_800 },
      { currency: 'USD', startMinor: 49_500, endMinor: 0, churnedMinor: 49_500 },
    ]);
  });

  it('is empty without paying subscriptions', () => {
    expect(mrrMovements([], from, to)).toEqual([]);
  });
});

describe('trial cohorts', () => {
  const trial = (startedAt: string, convertedAt: string | null = null) => ({
    startedAt: at(startedAt),
    convertedAt: convertedAt ? at(convertedAt) : null,
  });
  const trials = [
    trial('2026-02-28T23:59:59Z', '2026-03-02T00:00:00Z'),
    trial('2026-03-01T00:00:00Z', '2026-04-30T00:00:00Z'), // exactly 60 days
    trial('2026-03-10T00:00:00Z', '2026-05-09T00:00:00.001Z'), // 60 days and a moment
    trial('2026-03-31T23:59:59Z'),
    trial('2026-04-01T00:00:00Z', '2026-04-02T00:00:00Z'),
  ];
  it('counts the trials started in the month and those paid within 60 days of their start', () => {
    expect(trialCohort(trials, from, to, at('2026-07-01T00:00:00Z'))).toEqual({
      started: 3,
      converted: 1,
      final: true,
    });
  });
  it('is not final until 60 days after the month', () => {
    expect(trialCohort(trials, from, to, at('2026-05-30T23:59:59Z')).final).toBe(false);
    expect(trialCohort(trials, from, to, at('2026-05-31T00:00:00Z')).final).toBe(true);
  });
});

describe('months and days', () => {
  it('steps over years in UTC', () => {
    expect(addMonths('2026-01', -1)).toBe('2025-12');
    expect(addMonths('2025-12', 1)).toBe('2026-01');
    expect(monthsEndingWith('2026-03', 4)).toEqual(['2025-12', '2026-01', '2026-02', '2026-03']);
  });
  it('adds each day’s validations to its orgs: all codes, and the refused ones apart', () => {
    const spans = [
      {
        firstSeenAt: new Date('2026-03-01T10:00:00Z'),
        lastSeenAt: new Date('2026-03-02T09:00:00Z'),
      },
    ];
    const counts = [
      { day: '2026-03-01', code: 'VALID', answers: 40 },
      { day: '2026-03-01', code: 'EXPIRED', answers: 2 },
      { day: '2026-03-01', code: 'TOO_MANY_ORGS', answers: 1 },
      { day: '2026-03-03', code: 'VALID', answers: 5 },
      // A day outside the days asked for is not shown.
      { day: '2026-04-01', code: 'VALID', answers: 9 },
    ];
    expect(usagePerDay(spans, counts, ['2026-03-01', '2026-03-02', '2026-03-03'])).toEqual([
      { day: '2026-03-01', orgs: 1, validations: 43, refused: 3 },
      { day: '2026-03-02', orgs: 1, validations: 0, refused: 0 },
      { day: '2026-03-03', orgs: 0, validations: 5, refused: 0 },
    ]);
  });

  it('counts an org on every day between its first and last validation', () => {
    const days = daysBetween(at('2026-03-01T00:00:00Z'), at('2026-03-04T10:00:00Z'));
    expect(days).toEqual(['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04']);
    const spans = [
      { firstSeenAt: at('2026-02-20T00:00:00Z'), lastSeenAt: at('2026-03-02T08:00:00Z') },
      { firstSeenAt: at('2026-03-02T23:59:59Z'), lastSeenAt: at('2026-03-04T01:00:00Z') },
    ];
    expect(orgsPerDay(spans, days)).toEqual([
      { day: '2026-03-01', orgs: 1 },
      { day: '2026-03-02', orgs: 2 },
      { day: '2026-03-03', orgs: 1 },
      { day: '2026-03-04', orgs: 1 },
    ]);
  });
});
