import { z } from 'zod';

/**
 * The proof that a buyer's EU VAT ID is valid (decision 210): VIES's answer to our qualified
 * request, kept on the quote, the order and the invoice. Apart from `vat.ts` so the pricing page's
 * bundle carries no zod.
 */
export const vatIdConfirmationSchema = z.object({
  /** The VAT ID VIES confirmed, normalized with its prefix (`FR40303265045`). */
  vatId: z.string(),
  by: z.literal('vies'),
  /** VIES's `requestIdentifier`: the consultation number a tax audit asks for. */
  consultationNumber: z.string().min(1),
  /** The day VIES answered (YYYY-MM-DD). */
  confirmedOn: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  /** The name and address VIES holds for the number, when the member state discloses them. */
  name: z.string().nullable(),
  address: z.string().nullable(),
});

export type VatIdConfirmation = z.infer<typeof vatIdConfirmationSchema>;
