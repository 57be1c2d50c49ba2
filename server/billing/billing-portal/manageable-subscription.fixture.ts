import type { ManageableSubscription } from './build-portal-links.ts';

let sequence = 0;

/** A manageable subscription for tests: a new licence id, key hint and creation date each call. */
export function subscription(
  overrides: Partial<ManageableSubscription> = {},
): ManageableSubscription {
  sequence++;
  return {
    licenceId: `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`,
    customerId: 'cus_A',
    type: 'Paid',
    status: 'Active',
    edition: 'Pro',
    quantity: 5,
    keyHint: `K${String(sequence).padStart(3, '0')}`,
    billingPeriod: 'monthly',
    currency: 'USD',
    createdAt: new Date(Date.UTC(2025, 0, 1) + sequence * 86_400_000),
    ...overrides,
  };
}
