import { describe, expect, it } from 'vitest';
import {
  carriesMetricsToken,
  isLoopbackAddress,
  metricsSettingProblems,
} from './metrics-access.ts';

const token = 'metrics-token-0123456789abcdef0123456789';

describe('carriesMetricsToken', () => {
  it('accepts the token as a bearer credential, in any case of the scheme', () => {
    expect(carriesMetricsToken(`Bearer ${token}`, token)).toBe(true);
    expect(carriesMetricsToken(`bearer  ${token}`, token)).toBe(true);
  });

  it('refuses anything else: missing, another scheme, a prefix, a longer or empty token', () => {
    for (const header of [
      undefined,
      '',
      token,
      `Basic ${token}`,
      `Bearer ${token.slice(0, -1)}`,
      `Bearer ${token}x`,
      `Bearer ${token} ${token}`,
      'Bearer ',
      'Bearer',
    ]) {
      expect(carriesMetricsToken(header, token), String(header)).toBe(false);
    }
  });
});

describe('metricsSettingProblems', () => {
  it('names the variable of each problem', () => {
    expect(metricsSettingProblems({ PORT: 3000 })).toEqual([]);
    expect(metricsSettingProblems({ PORT: 3000, METRICS_PORT: 3000 })[0]?.[0]).toBe('METRICS_PORT');
    expect(metricsSettingProblems({ PORT: 3000, METRICS_HOST: '::1' })[0]?.[0]).toBe(
      'METRICS_HOST',
    );
    expect(
      metricsSettingProblems({ PORT: 3000, METRICS_PORT: 9464, METRICS_HOST: '10.0.0.5' }),
    ).toHaveLength(1);
  });

  it('knows loopback addresses', () => {
    expect(['127.0.0.1', '127.1.2.3', '::1'].every(isLoopbackAddress)).toBe(true);
    expect(
      ['0.0.0.0', '::', '10.0.0.1', '::ffff:127.0.0.1', 'localhost'].some(isLoopbackAddress),
    ).toBe(false);
  });
});
