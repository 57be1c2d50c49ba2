/**
 * `true` only when A and B are the same type. Docs that describe a TypeScript interface with a
 * zod schema assert `const check: SameType<z.output<typeof schema>, Interface> = true`, so the
 * documented shape cannot drift from the code's.
 */
export type SameType<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
