import { createConfig, lintFromString, type NormalizedProblem } from '@redocly/openapi-core';
import { apiDocument } from './domains.ts';

/**
 * Redocly's `recommended` rules over the served document; `npm run lint:openapi` prints the
 * problems and `tests/api/openapi-lint.test.ts` requires none to be errors.
 */
export async function lintApiDocument(): Promise<NormalizedProblem[]> {
  const document = apiDocument({
    accountBaseUrl: 'https://account.orgsmith.io',
    siteBaseUrl: 'https://orgsmith.io',
  });
  const config = await createConfig({ extends: ['recommended'] });
  return lintFromString({
    source: JSON.stringify(document, null, 2),
    absoluteRef: 'openapi.json',
    config,
  });
}

/** One line per problem: severity, rule, where and what. */
export function formatProblem(problem: NormalizedProblem): string {
  const where = problem.location[0]?.pointer ?? '';
  return `${problem.severity} ${problem.ruleId} ${where}: ${problem.message}`;
}
