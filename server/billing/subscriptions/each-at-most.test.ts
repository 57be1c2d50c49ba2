import { describe, expect, it } from 'vitest';
import { eachAtMost } from './provider-calls.ts';

describe('provider calls a few at a time (decisions 238, 246)', () => {
  it('runs every item once, never more than the limit at once', async () => {
    let running = 0;
    let most = 0;
    const done: number[] = [];
    await eachAtMost(3, [1, 2, 3, 4, 5, 6, 7], async (item) => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5 * (item % 3)));
      done.push(item);
      running--;
    });
    expect(most).toBe(3);
    expect(done.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('does nothing for no items', async () => {
    let calls = 0;
    await eachAtMost(8, [], async () => void calls++);
    expect(calls).toBe(0);
  });
});
