import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { permissionTableMarkdown } from './permission-table.ts';
import {
  allPermissions,
  isPermission,
  permissionsOf,
  roleGrants,
  roles,
  stepUpPermissions,
} from './permissions.ts';

describe('console roles and permissions (decision 226)', () => {
  it('gives the owner everything and the viewer nothing that changes anything', () => {
    expect(permissionsOf('owner')).toEqual(allPermissions);
    expect(permissionsOf('viewer').every((permission) => permission.endsWith('.read'))).toBe(true);
    for (const role of roles) {
      expect(new Set(permissionsOf(role)).size, role).toBe(permissionsOf(role).length);
      for (const permission of permissionsOf(role)) expect(isPermission(permission)).toBe(true);
    }
  });

  it('keeps operators to the owner, and approvals of money out of support', () => {
    for (const role of ['finance', 'support', 'viewer'] as const) {
      expect(roleGrants(role, 'operator.invite'), role).toBe(false);
      expect(roleGrants(role, 'operator.manage'), role).toBe(false);
      expect(roleGrants(role, 'licence.revoke'), role).toBe(false);
    }
    expect(roleGrants('support', 'refund.approve')).toBe(false);
    expect(roleGrants('finance', 'refund.approve')).toBe(true);
    expect(stepUpPermissions.every(isPermission)).toBe(true);
  });

  it('is the table of docs/console.md', async () => {
    const doc = await readFile(new URL('../../docs/console.md', import.meta.url), 'utf8');
    const table =
      /<!-- permissions-table:start -->\n([\s\S]*?)\n<!-- permissions-table:end -->/.exec(doc)?.[1];
    // On a difference, paste the expected table between the markers.
    expect(table).toBe(permissionTableMarkdown());
  });
});
