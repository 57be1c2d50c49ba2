import type { Currency } from './price-config.ts';

/*
 * Expected amounts worked out by hand from docs/product-rules.md#constants, not with the engine's formula:
 *   USD monthly units: Pro base 495, per org 135; Enterprise 3500.
 *   EUR monthly units: floor(495 × 0.926 = 458.37) = 458; floor(135 × 0.926 = 125.01) = 125;
 *                      floor(3500 × 0.926 = 3241) = 3241.
 *   Yearly units (× 10.8): USD 5346 / 1458 / 37800; EUR floor(4946.4) = 4946 / 1350 /
 *                          floor(35002.8) = 35002.
 *   Pro size part = per-org unit × (orgs − 4).
 */
export interface ExpectedPriceRow {
  size: number;
  currency: Currency;
  monthly: [base: number, size: number, total: number];
  yearly: [base: number, size: number, total: number];
  savedYearly: number;
}

/** Shared by the engine's unit tests and the pricing page's end-to-end tests. */
export const expectedPrices: readonly ExpectedPriceRow[] = [
  { size: 3, currency: 'USD', monthly: [0, 0, 0], yearly: [0, 0, 0], savedYearly: 0 },
  { size: 4, currency: 'USD', monthly: [495, 0, 495], yearly: [5346, 0, 5346], savedYearly: 594 },
  {
    size: 5,
    currency: 'USD',
    monthly: [495, 135, 630],
    yearly: [5346, 1458, 6804],
    savedYearly: 756,
  },
  {
    size: 6,
    currency: 'USD',
    monthly: [495, 270, 765],
    yearly: [5346, 2916, 8262],
    savedYearly: 918,
  },
  {
    size: 10,
    currency: 'USD',
    monthly: [495, 810, 1305],
    yearly: [5346, 8748, 14094],
    savedYearly: 1566,
  },
  {
    size: 24,
    currency: 'USD',
    monthly: [495, 2700, 3195],
    yearly: [5346, 29160, 34506],
    savedYearly: 3834,
  },
  {
    size: 25,
    currency: 'USD',
    monthly: [3500, 0, 3500],
    yearly: [37800, 0, 37800],
    savedYearly: 4200,
  },
  { size: 3, currency: 'EUR', monthly: [0, 0, 0], yearly: [0, 0, 0], savedYearly: 0 },
  { size: 4, currency: 'EUR', monthly: [458, 0, 458], yearly: [4946, 0, 4946], savedYearly: 550 },
  {
    size: 5,
    currency: 'EUR',
    monthly: [458, 125, 583],
    yearly: [4946, 1350, 6296],
    savedYearly: 700,
  },
  {
    size: 6,
    currency: 'EUR',
    monthly: [458, 250, 708],
    yearly: [4946, 2700, 7646],
    savedYearly: 850,
  },
  {
    size: 10,
    currency: 'EUR',
    monthly: [458, 750, 1208],
    yearly: [4946, 8100, 13046],
    savedYearly: 1450,
  },
  {
    size: 24,
    currency: 'EUR',
    monthly: [458, 2500, 2958],
    yearly: [4946, 27000, 31946],
    savedYearly: 3550,
  },
  {
    size: 25,
    currency: 'EUR',
    monthly: [3241, 0, 3241],
    yearly: [35002, 0, 35002],
    savedYearly: 3890,
  },
];
