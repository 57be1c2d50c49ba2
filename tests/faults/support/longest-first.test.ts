import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAULT_FILES_LONGEST_FIRST } from './longest-first.ts';

describe('the longest-first order of the fault files', () => {
  it('names every fault file, and no file that is gone', () => {
    const faultFiles = readdirSync(join(import.meta.dirname, '..'))
      .filter((name) => name.endsWith('.test.ts'))
      .map((name) => name.slice(0, -'.test.ts'.length))
      .sort();
    // A new fault file belongs in the list at the place of its length (its outages and waits).
    expect([...FAULT_FILES_LONGEST_FIRST].sort()).toEqual(faultFiles);
  });
});
