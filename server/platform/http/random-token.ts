import { randomFillSync } from 'node:crypto';

/** Enough for about a hundred requests (a 16-byte nonce and, on a first visit, a 24-byte token). */
const poolSize = 4096;
const pool = Buffer.alloc(poolSize);
let offset = poolSize;

/**
 * `size` bytes from the operating system's CSPRNG, encoded. They are drawn from a pool filled
 * 4 KiB at a time, as Node does for `randomUUID()`: one call into the CSPRNG per hundred requests
 * instead of one per token, which was a large share of a small response's cost (decision 081).
 * Every byte is handed out once.
 */
export function randomToken(size: number, encoding: 'base64' | 'base64url'): string {
  if (!Number.isInteger(size) || size < 1 || size > poolSize) {
    throw new RangeError(`randomToken: size must be a whole number from 1 to ${poolSize}`);
  }
  if (offset + size > poolSize) {
    randomFillSync(pool);
    offset = 0;
  }
  const token = pool.toString(encoding, offset, offset + size);
  offset += size;
  return token;
}
