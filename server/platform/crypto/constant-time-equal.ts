import { hash, timingSafeEqual } from 'node:crypto';

/**
 * Whether two secrets (tokens, signatures, hashes) are the same text, in a time that tells
 * nothing about where they differ nor how long the expected one is: both are hashed first, so
 * `timingSafeEqual` always compares 32 bytes (decision 164).
 */
export function constantTimeEqual(a: string, b: string): boolean {
  return timingSafeEqual(hash('sha256', a, 'buffer'), hash('sha256', b, 'buffer'));
}
