/*
 * The check digits of EU VAT IDs (decision 210): each member state's public checksum, so a made-up
 * number of the right format (`FR00000000000`, `ATU00000000`) is never taken for a real one. A
 * pass says only that the number could exist; VIES says whether it does. Pure functions, used by
 * the VAT rule (`vat.ts`) on the server and in the forms.
 */

/** The digits of a string of digits, as numbers. */
function digitsOf(text: string): number[] {
  return [...text].map(Number);
}

/** Σ digit × weight over the shorter of the two. */
function weighted(text: string, weights: readonly number[]): number {
  return digitsOf(text).reduce((sum, digit, i) => sum + digit * (weights[i] ?? 0), 0);
}

/** The Luhn check (ISO/IEC 7812) over the whole string, check digit last. */
function luhnPasses(text: string): boolean {
  const sum = digitsOf(text)
    .reverse()
    .reduce((total, digit, i) => {
      if (i % 2 === 0) return total + digit;
      const doubled = digit * 2;
      return total + (doubled > 9 ? doubled - 9 : doubled);
    }, 0);
  return sum % 10 === 0;
}

/** ISO 7064 Mod 11,10 over the whole string, check digit last (Germany, Croatia). */
function mod11Of10Passes(text: string): boolean {
  let product = 10;
  for (const digit of digitsOf(text.slice(0, -1))) {
    let sum = (digit + product) % 10;
    if (sum === 0) sum = 10;
    product = (sum * 2) % 11;
  }
  return (11 - product) % 10 === Number(text.at(-1));
}

/** The remainder of a long decimal string modulo `m`, digit by digit (no float overflow). */
function modOf(text: string, m: number): number {
  let rest = 0;
  for (const digit of digitsOf(text)) rest = (rest * 10 + digit) % m;
  return rest;
}

/** Austria, `U` and 8 digits: Luhn-like weights 1,2 over 7 digits, then (10 − (S + 4) mod 10). */
function austria(number: string): boolean {
  const body = number.slice(1);
  const sum = digitsOf(body.slice(0, 7)).reduce((total, digit, i) => {
    if (i % 2 === 0) return total + digit;
    const doubled = digit * 2;
    return total + Math.floor(doubled / 10) + (doubled % 10);
  }, 0);
  return (10 - ((sum + 4) % 10)) % 10 === Number(body[7]);
}

/** Belgium, 10 digits: the last two are 97 − (first eight mod 97). */
function belgium(number: string): boolean {
  return 97 - (Number(number.slice(0, 8)) % 97) === Number(number.slice(8));
}

/** Bulgaria: 9 digits for a company; 10 for a person (EGN), a foreigner (PNF) or another body. */
function bulgaria(number: string): boolean {
  const last = Number(number.at(-1));
  if (number.length === 9) {
    let check = weighted(number, [1, 2, 3, 4, 5, 6, 7, 8]) % 11;
    if (check === 10) check = weighted(number, [3, 4, 5, 6, 7, 8, 9, 10]) % 11;
    return check % 10 === last;
  }
  const egn = (weighted(number, [2, 4, 8, 5, 10, 9, 7, 3, 6]) % 11) % 10;
  const pnf = weighted(number, [21, 19, 17, 13, 11, 9, 7, 3, 1]) % 10;
  const other = (11 - (weighted(number, [4, 3, 2, 7, 6, 5, 4, 3, 2]) % 11)) % 11;
  return egn === last || pnf === last || (other !== 10 && other === last);
}

/** Cyprus, 8 digits and a letter: odd positions translated, the sum mod 26 is the letter. */
function cyprus(number: string): boolean {
  if (number.startsWith('2') || number.startsWith('12')) return false;
  const odd = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21];
  const sum = digitsOf(number.slice(0, 8)).reduce(
    (total, digit, i) => total + (i % 2 === 0 ? (odd[digit] ?? 0) : digit),
    0,
  );
  return String.fromCharCode(65 + (sum % 26)) === number[8];
}

/** A Czech birth number (rodné číslo): 9 digits before 1954 (no check), else divisible by 11. */
function czechBirthNumber(number: string): boolean {
  const month = (Number(number.slice(2, 4)) % 50) % 20;
  if (month < 1 || month > 12) return false;
  if (number.length === 9) return Number(number.slice(0, 2)) < 54;
  return modOf(number.slice(0, 9), 11) % 10 === Number(number[9]);
}

/** Czechia: 8 digits for a company, 9 starting with 6 for some persons, else a birth number. */
function czechia(number: string): boolean {
  const last = Number(number.at(-1));
  if (number.length === 8) {
    if (number.startsWith('9')) return false;
    const check = (11 - (weighted(number, [8, 7, 6, 5, 4, 3, 2]) % 11)) % 11;
    return (check || 1) % 10 === last;
  }
  if (number.length === 9 && number.startsWith('6')) {
    const check = weighted(number.slice(1, 8), [8, 7, 6, 5, 4, 3, 2]) % 11;
    return (8 - ((10 - check) % 11)) % 10 === last;
  }
  return czechBirthNumber(number);
}

/** Germany, 9 digits: ISO 7064 Mod 11,10; never starts with 0. */
function germany(number: string): boolean {
  return !number.startsWith('0') && mod11Of10Passes(number);
}

/** Denmark, 8 digits: weights 2,7,6,5,4,3,2,1, sum divisible by 11. */
function denmark(number: string): boolean {
  return !number.startsWith('0') && weighted(number, [2, 7, 6, 5, 4, 3, 2, 1]) % 11 === 0;
}

/** Estonia, 9 digits starting with 10: weights 3,7,1 repeated, sum divisible by 10. */
function estonia(number: string): boolean {
  return number.startsWith('10') && weighted(number, [3, 7, 1, 3, 7, 1, 3, 7, 1]) % 10 === 0;
}

/** Greece, 9 digits: Σ digit × 2^(8−i) over the first 8, mod 11, mod 10. */
function greece(number: string): boolean {
  const check = (weighted(number, [256, 128, 64, 32, 16, 8, 4, 2]) % 11) % 10;
  return check === Number(number[8]);
}

/** A Spanish DNI or NIE number (8 digits) and its letter. */
function spanishPersonLetter(digits: string): string {
  return 'TRWAGMYFPDXBNJZSQVHLCKE'[Number(digits) % 23] ?? '';
}

/** Spain: a company's CIF (letter, 7 digits, check digit or letter) or a person's NIF/NIE. */
function spain(number: string): boolean {
  const first = number[0] ?? '';
  const last = number[8] ?? '';
  if (/^\d$/.test(first)) return spanishPersonLetter(number.slice(0, 8)) === last;
  if ('XYZ'.includes(first)) {
    return spanishPersonLetter(String('XYZ'.indexOf(first)) + number.slice(1, 8)) === last;
  }
  if ('KLM'.includes(first)) return spanishPersonLetter(number.slice(1, 8)) === last;
  if (!'ABCDEFGHJNPQRSUVW'.includes(first) || !/^\d{7}$/.test(number.slice(1, 8))) return false;
  // A CIF's check is the Luhn check digit of its 7 digits, written as a digit or as a letter.
  const check = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].find((c) => luhnPasses(number.slice(1, 8) + c));
  return last === String(check) || last === 'JABCDEFGHI'[check ?? -1];
}

/** Finland, 8 digits: weights 7,9,10,5,8,4,2,1, sum divisible by 11. */
function finland(number: string): boolean {
  return weighted(number, [7, 9, 10, 5, 8, 4, 2, 1]) % 11 === 0;
}

/** France: a key of 2 digits (or, newer, letters) and the 9-digit SIREN it is computed from. */
function france(number: string): boolean {
  const key = number.slice(0, 2);
  const siren = number.slice(2);
  if (/^\d\d$/.test(key)) return Number(key) === modOf(`${siren}12`, 97);
  const alphabet = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ';
  const [a, b] = [alphabet.indexOf(key[0] ?? ''), alphabet.indexOf(key[1] ?? '')];
  const check = /^\d/.test(key) ? a * 24 + b - 10 : a * 34 + b - 100;
  return (modOf(siren, 11) + 1 + Math.floor(check / 11)) % 11 === check % 11;
}

/** Croatia, 11 digits: ISO 7064 Mod 11,10. */
function croatia(number: string): boolean {
  return mod11Of10Passes(number);
}

/** Hungary, 8 digits: weights 9,7,3,1 repeated, sum divisible by 10. */
function hungary(number: string): boolean {
  return weighted(number, [9, 7, 3, 1, 9, 7, 3, 1]) % 10 === 0;
}

/** Ireland: 7 digits and a check letter (and an optional second letter), or the old 8-character form. */
function ireland(number: string): boolean {
  const alphabet = 'WABCDEFGHIJKLMNOPQRSTUV';
  const checkOf = (digits: string, extra = 0) =>
    alphabet[(weighted(digits, [8, 7, 6, 5, 4, 3, 2]) + extra) % 23];
  if (/^\d{7}/.test(number)) {
    const second = number[8];
    const extra = second ? 'WABCDEFGHI'.indexOf(second) * 9 : 0;
    return extra >= 0 && checkOf(number.slice(0, 7), extra) === number[7];
  }
  // The old form: digit, letter, + or *, 5 digits, check letter; computed on 0 + the 5 + the first.
  return checkOf(`0${number.slice(2, 7)}${number[0]}`) === number[7];
}

/** Italy, 11 digits: Luhn, a non-zero company number and a real tax office (001–100, 120, 121, 888, 999). */
function italy(number: string): boolean {
  if (/^0{7}/.test(number)) return false;
  const office = number.slice(7, 10);
  const officeKnown =
    (Number(office) >= 1 && Number(office) <= 100) || ['120', '121', '888', '999'].includes(office);
  return officeKnown && luhnPasses(number);
}

/** Lithuania, 9 or 12 digits: weights 1…, mod 11; if 10, weights 3…, mod 11; 10 again counts as 0. */
function lithuania(number: string): boolean {
  const body = number.slice(0, -1);
  const weights = (start: number) => [...body].map((_, i) => ((start + i - 1) % 9) + 1);
  let check = weighted(body, weights(1)) % 11;
  if (check === 10) check = (weighted(body, weights(3)) % 11) % 10;
  return check === Number(number.at(-1));
}

/** Luxembourg, 8 digits: the first six mod 89 are the last two. */
function luxembourg(number: string): boolean {
  return Number(number.slice(0, 6)) % 89 === Number(number.slice(6));
}

/** Latvia, 11 digits: a company (first digit above 3) or a person's code. */
function latvia(number: string): boolean {
  if (Number(number[0]) > 3) {
    return weighted(number, [9, 1, 4, 8, 3, 10, 2, 5, 7, 6, 1]) % 11 === 3;
  }
  // Personal codes issued since 2017 start with 32 and carry no date and no check digit.
  if (number.startsWith('32')) return true;
  const check = ((1 + weighted(number, [10, 5, 8, 4, 2, 1, 6, 3, 7, 9])) % 11) % 10;
  return check === Number(number[10]);
}

/** Malta, 8 digits: weights 3,4,6,7,8,9 over six, and the last two are 37 − (sum mod 37). */
function malta(number: string): boolean {
  if (number.startsWith('0')) return false;
  return 37 - (weighted(number, [3, 4, 6, 7, 8, 9]) % 37) === Number(number.slice(6));
}

/** The Netherlands, 9 digits, B, 2 digits: the 11-test, or ISO 7064 Mod 97-10 (sole traders since 2020). */
function netherlands(number: string): boolean {
  const digits = number.slice(0, 9);
  const elevenTest = weighted(digits, [9, 8, 7, 6, 5, 4, 3, 2]) % 11;
  if (elevenTest !== 10 && elevenTest === Number(digits[8])) return true;
  // Letters count as A = 10 … Z = 35: N = 23, L = 21, B = 11.
  const numeric = `2321${digits}11${number.slice(10)}`;
  return modOf(numeric, 97) === 1;
}

/** Poland, 10 digits: weights 6,5,7,2,3,4,5,6,7, mod 11 (10 is no check digit). */
function poland(number: string): boolean {
  const check = weighted(number, [6, 5, 7, 2, 3, 4, 5, 6, 7]) % 11;
  return check !== 10 && check === Number(number[9]);
}

/** Portugal, 9 digits: weights 9…2, check 11 − (sum mod 11), 10 and 11 count as 0. */
function portugal(number: string): boolean {
  if (number.startsWith('0')) return false;
  const check = 11 - (weighted(number, [9, 8, 7, 6, 5, 4, 3, 2]) % 11);
  return (check >= 10 ? 0 : check) === Number(number[8]);
}

/** Romania, 2 to 10 digits: zero-padded to 10, weights 7,5,3,2,1,7,5,3,2, (sum × 10) mod 11 mod 10. */
function romania(number: string): boolean {
  const padded = number.padStart(10, '0');
  const check = ((weighted(padded, [7, 5, 3, 2, 1, 7, 5, 3, 2]) * 10) % 11) % 10;
  return check === Number(padded[9]);
}

/** Sweden, 12 digits ending in 01: the organisation number (first 10) passes Luhn. */
function sweden(number: string): boolean {
  return luhnPasses(number.slice(0, 10));
}

/** Slovenia, 8 digits: weights 8…2, check 11 − (sum mod 11), 10 counts as 0, 11 is no number. */
function slovenia(number: string): boolean {
  if (number.startsWith('0')) return false;
  const check = 11 - (weighted(number, [8, 7, 6, 5, 4, 3, 2]) % 11);
  if (check === 11) return false;
  return (check === 10 ? 0 : check) === Number(number[7]);
}

/** Slovakia, 10 digits: divisible by 11, no leading 0, third digit 2, 3, 4, 7, 8 or 9. */
function slovakia(number: string): boolean {
  return !number.startsWith('0') && '234789'.includes(number[2] ?? '') && modOf(number, 11) === 0;
}

/**
 * The checksum of each member state, by the prefix its VAT IDs start with (Greece `EL`). Every
 * state has one; where a kind of number has none (Czech birth numbers before 1954, Latvian
 * personal codes since 2017), its function says so.
 */
const checkDigitsByPrefix: Record<string, (number: string) => boolean> = {
  AT: austria,
  BE: belgium,
  BG: bulgaria,
  CY: cyprus,
  CZ: czechia,
  DE: germany,
  DK: denmark,
  EE: estonia,
  EL: greece,
  ES: spain,
  FI: finland,
  FR: france,
  HR: croatia,
  HU: hungary,
  IE: ireland,
  IT: italy,
  LT: lithuania,
  LU: luxembourg,
  LV: latvia,
  MT: malta,
  NL: netherlands,
  PL: poland,
  PT: portugal,
  RO: romania,
  SE: sweden,
  SI: slovenia,
  SK: slovakia,
};

/**
 * A number of zeros only (letters aside, and the Dutch `B` suffix) passes several states' sums
 * (0 mod 11 is 0) but is no one's number.
 */
function zerosOnly(number: string): boolean {
  return /^0+$/.test(number.replace(/B\d\d$/, '').replace(/[A-Z+*]/g, ''));
}

/**
 * Whether an EU VAT ID (normalized, with its prefix, already in its state's format) passes its
 * state's check digits. False for an unknown prefix.
 */
export function vatIdCheckDigitsPass(vatId: string): boolean {
  const check = Object.hasOwn(checkDigitsByPrefix, vatId.slice(0, 2))
    ? checkDigitsByPrefix[vatId.slice(0, 2)]
    : undefined;
  return check ? !zerosOnly(vatId.slice(2)) && check(vatId.slice(2)) : false;
}
