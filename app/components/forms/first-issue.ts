/** The first field message of a 400 answer (`{ issues: [{ field, message }] }`), if it has one. */
export async function firstIssue(response: Response): Promise<string | undefined> {
  const body: unknown = await response.json().catch(() => null);
  if (typeof body !== 'object' || body === null || !('issues' in body)) return undefined;
  if (!Array.isArray(body.issues)) return undefined;
  const [issue]: unknown[] = body.issues;
  if (typeof issue !== 'object' || issue === null || !('message' in issue)) return undefined;
  return typeof issue.message === 'string' ? issue.message : undefined;
}
