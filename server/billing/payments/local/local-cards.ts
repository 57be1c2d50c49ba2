/**
 * The local provider's test cards (decision 062). Only these numbers are accepted, so nobody types
 * a real card into a page that is not a payment processor; each decides every later charge too.
 */
export type CardOutcome = 'succeeds' | 'declines';

export const localTestCards = [
  { number: '4242424242424242', brand: 'Visa', outcome: 'succeeds' },
  { number: '4000000000000002', brand: 'Visa', outcome: 'declines' },
] as const satisfies ReadonlyArray<{ number: string; brand: string; outcome: CardOutcome }>;

/** `4242 4242 4242 4242`: how the pages show a test card number. */
export function groupedCardNumber(number: string): string {
  return number.replace(/(\d{4})(?=\d)/g, '$1 ');
}

export interface AcceptedCard {
  brand: string;
  last4: string;
  outcome: CardOutcome;
}

export type CardField = 'cardNumber' | 'cardExpiry' | 'cardCvc';

export type CardCheck =
  { ok: true; card: AcceptedCard } | { ok: false; errors: Partial<Record<CardField, string>> };

export const cardMessages = {
  numberRequired: 'Enter the card number.',
  numberInvalid: 'This card number is not valid.',
  notATestCard: 'Test mode accepts only the test cards shown on this page.',
  expiryRequired: 'Enter the expiry date as MM / YY.',
  expiryInvalid: 'Enter the expiry date as MM / YY.',
  expiryPast: 'This card has expired.',
  cvcInvalid: 'Enter the 3- or 4-digit security code.',
} as const;

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** Checks the card fields of a local page as a card form would, and names the test card used. */
export function checkCard(
  input: { cardNumber: string; cardExpiry: string; cardCvc: string },
  now: Date,
): CardCheck {
  const errors: Partial<Record<CardField, string>> = {};
  const digits = input.cardNumber.replace(/[\s-]/g, '');
  let card: AcceptedCard | undefined;
  if (digits === '') errors.cardNumber = cardMessages.numberRequired;
  else if (!/^\d{12,19}$/.test(digits) || !luhnValid(digits)) {
    errors.cardNumber = cardMessages.numberInvalid;
  } else {
    const test = localTestCards.find((candidate) => candidate.number === digits);
    if (!test) errors.cardNumber = cardMessages.notATestCard;
    else card = { brand: test.brand, last4: digits.slice(-4), outcome: test.outcome };
  }

  const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(input.cardExpiry);
  if (input.cardExpiry.trim() === '') errors.cardExpiry = cardMessages.expiryRequired;
  else if (!expiry) errors.cardExpiry = cardMessages.expiryInvalid;
  else {
    const month = Number(expiry[1]);
    const yearText = expiry[2] ?? '';
    const year = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText);
    if (month < 1 || month > 12) errors.cardExpiry = cardMessages.expiryInvalid;
    // A card is valid through the last day of its expiry month.
    else if (Date.UTC(year, month, 1) <= now.getTime()) errors.cardExpiry = cardMessages.expiryPast;
  }

  if (!/^\d{3,4}$/.test(input.cardCvc.trim())) errors.cardCvc = cardMessages.cvcInvalid;

  if (card && Object.keys(errors).length === 0) return { ok: true, card };
  return { ok: false, errors };
}
