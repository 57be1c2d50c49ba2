import { isIP } from 'node:net';
import { constantTimeEqual } from '#server/platform/crypto/constant-time-equal.ts';

/** Where Prometheus scrapes (decision 131). */
export const METRICS_PATH = '/metrics';

/** The token's alphabet is RFC 6750's b64token, so `Authorization: Bearer <token>` carries it as is. */
export const METRICS_TOKEN_PATTERN = /^[A-Za-z0-9._~+/=-]{32,512}$/;

/** The metrics listener's default address: this machine only. */
export const DEFAULT_METRICS_HOST = '127.0.0.1';

/** Metrics are kept only when someone can read them: a token, or a listener of their own. */
export function metricsEnabled(env: {
  METRICS_TOKEN?: string | undefined;
  METRICS_PORT?: number | undefined;
}): boolean {
  return env.METRICS_TOKEN !== undefined || env.METRICS_PORT !== undefined;
}

/** 127.0.0.0/8 and ::1: addresses nobody else can reach. */
export function isLoopbackAddress(host: string): boolean {
  if (isIP(host) === 4) return host.startsWith('127.');
  return isIP(host) === 6 && (host === '::1' || host === '0:0:0:0:0:0:0:1');
}

/**
 * What is wrong with the metrics settings, one `[variable, message]` per problem: a listener on
 * the public port, or beyond loopback without a token, would publish our traffic to anyone.
 */
export function metricsSettingProblems(env: {
  PORT: number;
  METRICS_PORT?: number | undefined;
  METRICS_HOST?: string | undefined;
  METRICS_TOKEN?: string | undefined;
}): Array<[string, string]> {
  const problems: Array<[string, string]> = [];
  if (env.METRICS_PORT !== undefined && env.METRICS_PORT === env.PORT) {
    problems.push(['METRICS_PORT', 'must differ from PORT (the public port takes METRICS_TOKEN)']);
  }
  if (env.METRICS_HOST !== undefined && env.METRICS_PORT === undefined) {
    problems.push(['METRICS_HOST', 'needs METRICS_PORT (the listener it binds)']);
  }
  if (
    env.METRICS_PORT !== undefined &&
    env.METRICS_HOST !== undefined &&
    !isLoopbackAddress(env.METRICS_HOST) &&
    env.METRICS_TOKEN === undefined
  ) {
    problems.push([
      'METRICS_HOST',
      `${env.METRICS_HOST} is reachable from other machines: set METRICS_TOKEN as well`,
    ]);
  }
  return problems;
}

/** Whether `Authorization` carries the token, in the same time whatever was sent. */
export function carriesMetricsToken(authorization: string | undefined, token: string): boolean {
  if (authorization === undefined) return false;
  const sent = /^Bearer +(\S+) *$/i.exec(authorization)?.[1] ?? '';
  return constantTimeEqual(sent, token) && sent.length > 0;
}
