import { allPermissions, permissions, roles, roleGrants } from './permissions.ts';

/** The table of roles × permissions in docs/console.md, from `permissions.ts` (a test compares). */
export function permissionTableMarkdown(): string {
  const header = `| Permission | What it allows | ${roles.join(' | ')} |`;
  const rule = `|---|---|${roles.map(() => ':-:').join('|')}|`;
  const rows = allPermissions.map(
    (permission) =>
      `| \`${permission}\` | ${permissions[permission]} | ${roles
        .map((role) => (roleGrants(role, permission) ? '✓' : ''))
        .join(' | ')} |`,
  );
  return [header, rule, ...rows].join('\n');
}
