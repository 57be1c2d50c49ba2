import type { BillingPorts } from '#server/billing/billing-ports.ts';

/** What the site's features (trials, contact, the site itself, security.txt) use (decision 176). */
export interface FeaturePorts extends BillingPorts {
  env: BillingPorts['env'] & {
    NODE_ENV: 'development' | 'production' | 'test';
    SUPPORT_EMAIL: string;
    GA_MEASUREMENT_ID?: string | undefined;
    SECURITY_TXT_EXPIRES: Date;
    /** The operator console's origin: its passkeys' relying party (decision 226). */
    CONSOLE_ORIGIN: string;
  };
}
