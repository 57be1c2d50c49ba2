import type { BillingPeriod } from '#shared/pricing/index.ts';

export const periodLabel = (period: BillingPeriod) =>
  period === 'monthly' ? 'per month' : 'per year';
