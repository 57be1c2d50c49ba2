import { describe, expect, it } from 'vitest';
import { formatProblem, lintApiDocument } from '#server/lint-api-document.ts';

describe('the OpenAPI document under Redocly’s recommended rules', () => {
  it('has no errors', async () => {
    const problems = await lintApiDocument();
    const errors = problems.filter((problem) => problem.severity === 'error').map(formatProblem);
    expect(errors).toEqual([]);
  }, 30_000);
});
