import { describe, expect, it } from 'vitest';
import { clientChunks } from './client-chunks.ts';

type Group = { name: string; test?: unknown };

function groupTest(groups: Group[], name: string): (id: string) => boolean {
  const test = groups.find((group) => group.name === name)?.test;
  if (test instanceof RegExp) return (id) => test.test(id);
  if (typeof test === 'function') return (id) => Boolean(test(id));
  throw new Error(`no test for group ${name}`);
}

/** Feeds the plugin a module graph as Rolldown would, module by module. */
function chunksFor(graph: Record<string, string[]>) {
  const chunks = clientChunks('/app/root.tsx');
  const parsed = chunks.plugin.moduleParsed;
  if (typeof parsed !== 'function') throw new Error('moduleParsed hook expected');
  for (const [id, importedIds] of Object.entries(graph)) {
    Reflect.apply(parsed, {}, [{ id, importedIds }]);
  }
  return chunks.codeSplitting.groups;
}

describe('clientChunks', () => {
  const groups = chunksFor({
    '/app/root.tsx': ['/app/shell/Header.tsx', '/node_modules/react-router/dist/index.js'],
    '/app/shell/Header.tsx': ['/app/pages.ts', '/app/shell/Header.module.css'],
    '/app/pages.ts': [],
    '/app/routes/home.tsx': ['/app/pages.ts', '/app/components/TerminalDemo.tsx'],
    '/app/components/TerminalDemo.tsx': [],
  });

  it('puts everything the root route imports, directly or not, in the shell', () => {
    const shell = groupTest(groups, 'shell');
    expect(shell('/app/shell/Header.tsx')).toBe(true);
    expect(shell('/app/pages.ts')).toBe(true);
    expect(shell('/app/shell/Header.module.css')).toBe(true);
  });

  it('leaves out what only a page imports, and the root module itself', () => {
    const shell = groupTest(groups, 'shell');
    expect(shell('/app/components/TerminalDemo.tsx')).toBe(false);
    expect(shell('/app/routes/home.tsx')).toBe(false);
    expect(shell('/app/root.tsx')).toBe(false);
  });

  it('puts React, ReactDOM, the scheduler and React Router in the framework chunk', () => {
    const framework = groupTest(groups, 'framework');
    for (const id of [
      '/w/node_modules/react/cjs/react.production.js',
      '/w/node_modules/react-dom/cjs/react-dom-client.production.js',
      '/w/node_modules/scheduler/index.js',
      '/w/node_modules/react-router/dist/production/index.js',
    ]) {
      expect(framework(id), id).toBe(true);
    }
    expect(framework('/w/node_modules/react-router-extra/index.js')).toBe(false);
    expect(framework('/w/app/react/thing.ts')).toBe(false);
  });
});
