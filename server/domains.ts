import type { AppDeps } from './deps.ts';
import type { Env } from './env.ts';
import { backupDomain } from './backup/backup-module.ts';
import type { BackupTaker } from './backup/take-backup.ts';
import { billingPortalDomain } from './billing/billing-portal/billing-portal-module.ts';
import { checkoutDomain } from './billing/checkout/checkout-module.ts';
import { invoiceDomain } from './billing/invoices/invoice-module.ts';
import { paymentDomain } from './billing/payments/payment-module.ts';
import { quoteDomain } from './billing/quotes/quote-module.ts';
import { paymentDocumentDomain } from './billing/documents/payment-document-module.ts';
import { fxRateDomain } from './billing/fx-rates/fx-rate-module.ts';
import { subscriptionDomain } from './billing/subscriptions/subscription-module.ts';
import { consoleDomain } from './features/console/console-module.ts';
import { contactDomain } from './features/contact/contact-module.ts';
import { customerDomain } from './features/customers/customer-module.ts';
import { dashboardDomain } from './features/dashboard/dashboard-module.ts';
import { licencePageDomain } from './features/licence-page/licence-page-module.ts';
import { logsDomain } from './features/logs/logs-module.ts';
import { privacyDomain } from './features/privacy/privacy-module.ts';
import { securityContactDomain } from './features/security-contact/security-contact-module.ts';
import { trialDomain } from './features/trials/trial-module.ts';
import { healthDomain } from './health/health-module.ts';
import { accessTokenDomain } from './licensing/access-tokens/access-token-module.ts';
import { licenceCertificateDomain } from './licensing/licence-certificates/licence-certificate-module.ts';
import { licenceRecoveryDomain } from './licensing/licence-recovery/licence-recovery-module.ts';
import { licenceValidationDomain } from './licensing/licence-validation/licence-validation-module.ts';
import { licenceDomain } from './licensing/licence-support/licence-module.ts';
import { licenceOrgDomain } from './licensing/licence-orgs/licence-org-module.ts';
import { releaseDomain } from './licensing/releases/release-module.ts';
import { buildApiDocument, type ApiDocumentUrls } from './openapi/api-docs.ts';
import { referenceDomain } from './openapi/openapi-module.ts';
import type { ApiOperationDoc } from './platform/api-doc/api-doc.ts';
import type { AdminCommand } from './platform/commands/command.ts';
import type { Domain } from './platform/domain/define-domain.ts';
import { auditDomain } from './platform/audit/audit-module.ts';
import { emailDomain } from './platform/email/email-module.ts';
import { csrfDomain } from './platform/csrf/csrf-module.ts';
import { rateLimitDomain } from './platform/rate-limit/rate-limit-module.ts';

/** What the runtime hands every background job. */
export interface JobContext {
  deps: AppDeps;
  /** The process's one backup queue, shared by scheduled backups and the admin socket. */
  backupTaker: BackupTaker;
}

export type AppDomain = Domain<AppDeps, JobContext, Env>;

/**
 * Every domain of the product, once (decision 169): `app.ts` mounts their routes in this order
 * (hot-path routes first, the site's catch-all after all of them), the OpenAPI document covers
 * their route definitions, the admin CLI lists their commands in this order and the runtime
 * runs their jobs on one runner (decision 174). A new domain exports a manifest (`defineDomain`) and is listed here.
 */
export const domains: readonly AppDomain[] = [
  releaseDomain,
  licenceDomain,
  subscriptionDomain,
  accessTokenDomain,
  licenceOrgDomain,
  trialDomain,
  contactDomain,
  quoteDomain,
  paymentDocumentDomain,
  fxRateDomain,
  emailDomain,
  backupDomain,
  paymentDomain,
  invoiceDomain,
  csrfDomain,
  healthDomain,
  securityContactDomain,
  billingPortalDomain,
  checkoutDomain,
  licenceCertificateDomain,
  licenceRecoveryDomain,
  licenceValidationDomain,
  rateLimitDomain,
  privacyDomain,
  customerDomain,
  dashboardDomain,
  licencePageDomain,
  logsDomain,
  auditDomain,
  consoleDomain,
  referenceDomain((urls) => apiDocument(urls)),
];

/** Every domain's route definitions, hot-path routes included: what the app registers. */
export function routeDefinitions(): readonly ApiOperationDoc[] {
  return domains
    .flatMap((domain) => [...(domain.hotPathRoutes ?? []), ...(domain.routes ?? [])])
    .flatMap((group) => group.docs);
}

/** Every domain's console endpoints: what the console listener registers (decision 226). */
export function consoleRouteDefinitions(): readonly ApiOperationDoc[] {
  return domains.flatMap((domain) => domain.consoleRoutes ?? []).flatMap((group) => group.docs);
}

/** The OpenAPI 3.1 document of every domain's route definitions. */
export function apiDocument(urls: ApiDocumentUrls): Record<string, unknown> {
  return buildApiDocument(routeDefinitions(), urls);
}

/**
 * Every operator command, loaded on demand: the server loads them only when its admin socket runs
 * one (decisions 135 and 189).
 */
export async function loadAdminCommands(): Promise<readonly AdminCommand<Env, AppDeps>[]> {
  const lists = await Promise.all(domains.map((domain) => domain.adminCommands?.() ?? []));
  return lists.flat();
}
