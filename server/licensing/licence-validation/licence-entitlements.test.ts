import { describe, expect, it } from 'vitest';
import { licenceEntitlements } from './licence-entitlements.ts';

describe('licenceEntitlements', () => {
  it('gives Starter 3 orgs, 1 stack and the free features', () => {
    expect(licenceEntitlements({ type: 'Free', edition: 'Starter', quantity: 3 })).toEqual({
      orgs: 3,
      stacks: 1,
      features: ['support'],
    });
  });

  it('gives Pro its bought orgs, ceil(orgs × 0.2) stacks and the Pro features', () => {
    expect(licenceEntitlements({ type: 'Paid', edition: 'Pro', quantity: 6 })).toEqual({
      orgs: 6,
      stacks: 2,
      features: ['rollback', 'support', 'testAutomation', 'utilityCommands'],
    });
    expect(licenceEntitlements({ type: 'Paid', edition: 'Pro', quantity: 24 })).toMatchObject({
      orgs: 24,
      stacks: 5,
    });
  });

  it('gives Enterprise everything without limits', () => {
    expect(licenceEntitlements({ type: 'Paid', edition: 'Enterprise', quantity: 25 })).toEqual({
      orgs: 'unlimited',
      stacks: 'unlimited',
      features: [
        'branchSwitching',
        'rollback',
        'sla',
        'support',
        'testAutomation',
        'utilityCommands',
      ],
    });
  });

  it('gives a trial its edition features with no limits', () => {
    expect(
      licenceEntitlements({ type: 'Trial', edition: 'Enterprise', quantity: 1 }),
    ).toMatchObject({
      orgs: 'unlimited',
      stacks: 'unlimited',
      features: expect.arrayContaining(['rollback']),
    });
    expect(licenceEntitlements({ type: 'Trial', edition: 'Pro', quantity: 1 })).toMatchObject({
      orgs: 'unlimited',
    });
  });

  it('reads a fixed edition at its fixed size whatever quantity was stored', () => {
    expect(licenceEntitlements({ type: 'Free', edition: 'Starter', quantity: 1 }).orgs).toBe(3);
    expect(licenceEntitlements({ type: 'Paid', edition: 'Pro', quantity: 2 }).orgs).toBe(4);
  });
});
