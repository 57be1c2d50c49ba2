import { defineDomain } from '#server/platform/domain/define-domain.ts';
import type { FeaturePorts } from '../feature-ports.ts';
import { logsConsoleRoutes } from './logs-console-routes.ts';

/** The console's logs (decision 235): Stripe events received and e-mails sent, with retry and resend. */
export const logsDomain = defineDomain<FeaturePorts, unknown>({
  name: 'logs',
  consoleRoutes: [logsConsoleRoutes],
});
