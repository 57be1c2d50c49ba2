import { describe, expect, it } from 'vitest';
import { apiDocument, domains, loadAdminCommands } from './domains.ts';

describe('the list of domains', () => {
  it('names each domain once and documents each operation once', () => {
    const names = domains.map((domain) => domain.name);
    expect(new Set(names).size).toBe(names.length);
    const operations = domains
      .flatMap((domain) => [...(domain.hotPathRoutes ?? []), ...(domain.routes ?? [])])
      .flatMap((group) => group.docs)
      .map((doc) => doc.operationId);
    expect(new Set(operations).size).toBe(operations.length);
    const document = apiDocument({ accountBaseUrl: 'http://a', siteBaseUrl: 'http://s' });
    expect(Object.keys(document.paths as object).length).toBeGreaterThan(20);
  });

  it('gives the admin CLI every command once, grouped as before', async () => {
    const commands = await loadAdminCommands();
    const names = commands.map((command) => command.name);
    expect(new Set(names).size).toBe(names.length);
    const groups = [...new Set(names.map((name) => name.split(' ')[0]))];
    expect(groups.slice(0, 3)).toEqual(['releases', 'licences', 'access-tokens']);
    expect(names).toEqual(expect.arrayContaining(['releases publish', 'outbox show', 'backup']));
  });
});
