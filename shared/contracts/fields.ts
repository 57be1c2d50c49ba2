import * as z from 'zod/mini';
import { validationMessages as m } from './messages.ts';

/**
 * The e-mail address rule of every form and endpoint (decision 051): a dot-atom local part of at
 * most 64 characters, a domain with at least one dot and a letter TLD, 254 characters in all.
 */
export const EMAIL_ADDRESS_PATTERN =
  /^(?=.{1,254}$)(?=[^@]{1,64}@)[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

/** Line breaks and tabs: a single-line field is refused with "keep this on a single line". */
const LINE_BREAK = /[\n\r\t\v\f\u0085\u2028\u2029]/u;
/**
 * Control and format characters (decision 208): an operator's terminal obeys them (ESC, C1
 * U+009B) and they disguise text (U+202E reverses it, U+200B hides a dot), so no single line
 * a visitor types carries one.
 */
const CONTROL_OR_FORMAT = /[\p{Cc}\p{Cf}]/u;
/**
 * In text that may span lines (the contact message): control characters other than its line
 * breaks and tabs, and the bidi controls. Other format characters stay: emoji sequences need
 * U+200D and some scripts U+200C.
 */
const CONTROL_OR_BIDI_IN_LINES = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
const LAYOUT_IN_LINES = /[\n\r\t]/gu;

/**
 * The one check of every single-line field: no line break (it may end up in an e-mail header)
 * and no control or format character.
 */
export function singleLineCheck() {
  return z.superRefine((value: string, context) => {
    if (LINE_BREAK.test(value)) {
      context.addIssue({ code: 'custom', message: m.singleLine, input: value });
    } else if (CONTROL_OR_FORMAT.test(value)) {
      context.addIssue({ code: 'custom', message: m.invisibleCharacter, input: value });
    }
  });
}

/** The check of text that may span lines: its line breaks and tabs, nothing else invisible. */
export function multiLineCheck() {
  return z.refine<string>(
    (value) => !CONTROL_OR_BIDI_IN_LINES.test(value.replace(LAYOUT_IN_LINES, ' ')),
    m.invisibleCharacter,
  );
}

function text(required: string) {
  return z.string({
    error: (issue) => (issue.input === undefined || issue.input === null ? required : m.notText),
  });
}

function trimmedText(required: string, max: number, tooLong: string) {
  return text(required).check(
    z.trim(),
    z.minLength(1, { error: required, abort: true }),
    z.maxLength(max, tooLong),
  );
}

/** Required, trimmed, at most `max` characters; it may span lines (a message). */
export function requiredText(required: string, max: number, tooLong: string) {
  return trimmedText(required, max, tooLong).check(multiLineCheck());
}

/** Like `requiredText`, on one line. */
export function requiredLine(required: string, max: number, tooLong: string) {
  return trimmedText(required, max, tooLong).check(singleLineCheck());
}

/** Optional single line: absent, null and blank all mean "not given". */
export function optionalLine(max: number, tooLong: string) {
  return z.pipe(
    z.optional(
      z.nullable(
        z
          .string({ error: m.notText })
          .check(z.trim(), z.maxLength(max, tooLong), singleLineCheck()),
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
      z.refine(
        (value) => !CONTROL_OR_FORMAT.test(value.replaceAll('\n', ' ')),
        m.invisibleCharacter,
      ),
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
