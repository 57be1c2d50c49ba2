import { z } from 'zod';

/** Rows of a log page unless asked otherwise, and the most one page holds (decision 235). */
export const LOG_PAGE_SIZE = 50;
export const LOG_PAGE_MAX = 200;

/** A page cursor: the `next` of the page before, a row's sequence number. */
export const logCursor = z.coerce
  .number('A page cursor from `next`')
  .int()
  .positive()
  .max(Number.MAX_SAFE_INTEGER);
