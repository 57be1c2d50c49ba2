import { formatProblem, lintApiDocument } from '#server/lint-api-document.ts';

// `npm run lint:openapi`: Redocly's recommended rules over the document the server serves.
const problems = await lintApiDocument();
for (const problem of problems) console.log(formatProblem(problem));
const errors = problems.filter((problem) => problem.severity === 'error').length;
console.log(`${errors} errors, ${problems.length - errors} warnings`);
process.exitCode = errors > 0 ? 1 : 0;
