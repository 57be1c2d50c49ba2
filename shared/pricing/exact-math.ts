/**
 * Multiplication by decimal factors without binary floating-point surprises
 * (3500 × 0.926 must floor to 3241, never 3240).
 */
const scale = 1_000_000;

function scaledProduct(amount: number, factor: number): number {
  if (!Number.isInteger(amount)) throw new RangeError(`Expected a whole amount, got ${amount}`);
  const numerator = Math.round(factor * scale);
  if (Math.abs(numerator / scale - factor) > 1e-12) {
    throw new RangeError(`Factor ${factor} has more than 6 decimal places`);
  }
  return amount * numerator;
}

/** floor(amount × factor) for a whole amount and a factor with at most 6 decimals. */
export function floorTimes(amount: number, factor: number): number {
  const product = scaledProduct(amount, factor);
  const remainder = ((product % scale) + scale) % scale;
  return (product - remainder) / scale;
}

/** ceil(amount × factor) for a whole amount and a factor with at most 6 decimals. */
export function ceilTimes(amount: number, factor: number): number {
  const product = scaledProduct(amount, factor);
  const remainder = ((product % scale) + scale) % scale;
  return (product - remainder) / scale + (remainder === 0 ? 0 : 1);
}
