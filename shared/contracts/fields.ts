import * as z from 'zod/mini';
import { validationMessages as m } from './messages.ts';

/**
 * The e-mail address rule of every form and endpoint (decision 051): a dot-atom local part of at
 * most 64 characters, a domain with at least one dot and a letter TLD, 254 characters in all.
 */
export const EMAIL_ADDRESS_PATTERN =
  /^(?=.{1,254}$)(?=[^@]{1,64}@)[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

/** True when the text has no line breaks, tabs or other control characters. */
function isSingleLine(value: string): boolean {
  for (const char of value) {
    const code = char.charCodeAt(0);
    if (code < 0x20 || code === 0x7f) return false;
  }
  return true;
}

function text(required: string) {
  return z.string({
    error: (issue) => (issue.input === undefined || issue.input === null ? required : m.notText),
  });
}

/** Required, trimmed, at most `max` characters. */
export function requiredText(required: string, max: number, tooLong: string) {
  return text(required).check(
    z.trim(),
    z.minLength(1, { error: required, abort: true }),
    z.maxLength(max, tooLong),
  );
}

/** Like `requiredText`, on one line (it may end up in an e-mail header). */
export function requiredLine(required: string, max: number, tooLong: string) {
  return requiredText(required, max, tooLong).check(z.refine(isSingleLine, m.singleLine));
}

/** Optional single line: absent, null and blank all mean "not given". */
export function optionalLine(max: number, tooLong: string) {
  return z.pipe(
    z.optional(
      z.nullable(
        z
          .string({ error: m.notText })
          .check(z.trim(), z.maxLength(max, tooLong), z.refine(isSingleLine, m.singleLine)),
      ),
    ),
    z.transform((value) => (value ? value : undefined)),
  );
}

/**
 * Optional text that may span lines (a postal address): absent, null and blank all mean "not
 * given"; line endings become `\n`, blank lines and trailing spaces go.
 */
export function optionalLines(
  max: number,
  tooLong: string,
  maxLines: number,
  tooManyLines: string,
) {
  const normalized = z
    .pipe(
      z.optional(z.nullable(z.string({ error: m.notText }))),
      z.transform((value) =>
        (value ?? '')
          .split(/\r\n|\r|\n/)
          .map((line) => line.trim())
          .filter((line) => line.length > 0)
          .join('\n'),
      ),
    )
    .check(
      z.refine((value) => value.length <= max, tooLong),
      z.refine((value) => value.split('\n').length <= maxLines, tooManyLines),
      z.refine((value) => isSingleLine(value.replaceAll('\n', ' ')), m.singleLine),
    );
  return z.pipe(
    normalized,
    z.transform((value) => (value ? value : undefined)),
  );
}

export const emailAddressField = text(m.emailRequired).check(
  z.trim(),
  z.minLength(1, { error: m.emailRequired, abort: true }),
  z.regex(EMAIL_ADDRESS_PATTERN, m.emailInvalid),
);

/** The first message per field of a failed parse: what a form shows under each input. */
export function fieldErrors(
  schema: z.ZodMiniType,
  values: unknown,
): Partial<Record<string, string>> {
  const result = schema.safeParse(values);
  if (result.success) return {};
  const errors: Partial<Record<string, string>> = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? '');
    errors[field] ??= issue.message;
  }
  return errors;
}
