import type { LicensingPorts } from '#server/licensing/licensing-ports.ts';
import type { BankAccounts } from './bank-accounts.ts';
import type { InvoiceApprovalPolicy } from './invoices/invoice-approval.ts';
import type { PaymentSettings } from './payments/create-payment-provider.ts';
import type { Currency } from '#shared/pricing/index.ts';
import type { PaymentProvider } from './subscriptions/payment-provider.ts';

/** What billing's routes and services use of the running service (decision 176). */
export interface BillingPorts extends LicensingPorts {
  env: LicensingPorts['env'] &
    PaymentSettings & {
      HOST?: string | undefined;
      PAYMENT_PROVIDER?: 'stripe' | 'local' | undefined;
      /** VIES's REST API (decision 210). */
      VIES_URL: string;
      /** The ECB's reference rates file, fetched every hour when set (decision 221). */
      ECB_RATES_URL?: string | undefined;
      /** The seller's account per invoice currency (decision 218); none: no invoice in it. */
      bankAccounts: BankAccounts;
      /** When an invoice order waits for finance (decision 230). */
      invoiceApproval: InvoiceApprovalPolicy;
      /** Gross per console refund above which a second operator approves it (decision 233). */
      refundApprovalAboveMinor: Record<Currency, number>;
    };
  /** The card payment provider (Stripe or the built-in local provider). */
  payments: PaymentProvider;
}
