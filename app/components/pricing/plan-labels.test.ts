import { describe, expect, it } from 'vitest';
import { priceInfo } from '#shared/pricing/index.ts';
import { orgsLabel, planRangeLabel, stacksLabel } from './plan-labels.ts';

describe('plan labels', () => {
  it('labels plan ranges with singular and plural nouns', () => {
    expect(planRangeLabel('Starter', 'orgs')).toBe('3 orgs');
    expect(planRangeLabel('Starter', 'stacks')).toBe('1 stack');
    expect(planRangeLabel('Pro', 'orgs')).toBe('4 to 24 orgs');
    expect(planRangeLabel('Pro', 'stacks')).toBe('1 to 5 stacks');
    expect(planRangeLabel('Enterprise', 'orgs')).toBe('Unlimited orgs');
  });

  it('counts the orgs and stacks of a size, unlimited included', () => {
    expect(orgsLabel(priceInfo(3))).toBe('3 orgs');
    expect(stacksLabel(priceInfo(3))).toBe('1 stack');
    expect(orgsLabel(priceInfo(24))).toBe('24 orgs');
    expect(orgsLabel(priceInfo(25))).toBe('Unlimited orgs');
    expect(stacksLabel(priceInfo(25))).toBe('Unlimited stacks');
  });
});
