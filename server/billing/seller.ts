import { z } from 'zod';
import { siteConfig } from '#shared/site-config.ts';

/**
 * The seller as quotes, invoices and receipts name it, frozen into each document when it is made
 * (an issued document keeps the address it was issued with).
 */
export const sellerSchema = z.object({
  name: z.string(),
  addressLines: z.array(z.string()),
  managingDirector: z.string(),
  register: z.string(),
  vatId: z.string(),
  phone: z.string(),
  email: z.string(),
  website: z.string(),
});

export type Seller = z.infer<typeof sellerSchema>;

/** The seller as the imprint names it (shared/site-config.ts is the imprint's source too). */
export function sellerDetails(publicBaseUrl: string): Seller {
  const { company } = siteConfig;
  return {
    name: company.name,
    addressLines: [company.street, `${company.postalCode} ${company.city}`, company.country],
    managingDirector: company.managingDirector,
    register: `${company.registerCourtEn}, ${company.registerNumber}`,
    vatId: company.vatId,
    phone: company.phone,
    email: siteConfig.salesEmail,
    website: new URL(publicBaseUrl).host,
  };
}
