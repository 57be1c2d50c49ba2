import { describe, expect, it } from 'vitest';
import { isClientAbort } from './client-abort.ts';

describe('isClientAbort', () => {
  it('is a request whose socket closed before its body was complete', () => {
    expect(isClientAbort({ complete: false, destroyed: true })).toBe(true);
  });

  it('is not a complete request, one still arriving, or an in-process one', () => {
    expect(isClientAbort({ complete: true, destroyed: true })).toBe(false);
    expect(isClientAbort({ complete: false, destroyed: false })).toBe(false);
    expect(isClientAbort(undefined)).toBe(false);
  });
});
