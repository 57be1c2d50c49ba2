import { recordAuditEvent } from '#server/platform/audit/audit-log-repository.ts';
import { keyedHash } from '#server/platform/crypto/keyed-hash.ts';
import { createLinkToken } from '#server/platform/crypto/link-token.ts';
import { CONSOLE_ENROL_PATH, type OperatorView } from '#shared/contracts/console.ts';
import type { Role } from '#shared/console/permissions.ts';
import type { ConsolePorts } from './console-ports.ts';
import {
  createConsoleSessionRepository,
  createOperatorRepository,
  type OperatorRow,
} from './operator-repository.ts';

/** How long an enrolment link works. */
export const ENROLMENT_TTL_MS = 24 * 60 * 60 * 1000;

export function operatorView(row: OperatorRow): OperatorView {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    disabledAt: row.disabledAt?.toISOString() ?? null,
  };
}

export function enrolmentTokenHash(secretKey: string, token: string): string {
  return keyedHash(secretKey, 'operator-enrolment', token);
}

export type InviteResult =
  | { ok: true; operator: OperatorView; enrolmentUrl: string; expiresAt: Date }
  | { ok: false; code: 'operatorExists' };

/**
 * Invites an operator (decision 226): a new address gets a row `invited` with `role`; an invited
 * or disabled one gets a fresh link (older links stop working) and the role; an active operator
 * is refused (their role changes in the console). The link is printed once and kept as a keyed
 * hash; it works once, for 24 hours. Audited by the `operators` trigger, as the current actor.
 */
export async function inviteOperator(
  ports: ConsolePorts,
  input: { email: string; role: Role },
): Promise<InviteResult> {
  const now = ports.clock();
  const token = createLinkToken();
  const expiresAt = new Date(now.getTime() + ENROLMENT_TTL_MS);
  const result = await ports.db.transaction(async (tx) => {
    const repository = createOperatorRepository(tx);
    const existing = await repository.byEmail(input.email);
    if (existing?.status === 'active') return undefined;
    const operator = existing
      ? await repository.update(
          existing.id,
          { role: input.role, status: 'invited', disabledAt: null },
          now,
        )
      : await repository.insert(input.email.trim(), input.role, now);
    if (!operator) return undefined;
    await repository.closeEnrolments(operator.id, now);
    // A new link for someone still invited changes no column the trigger sees: said here.
    if (existing?.status === 'invited') {
      await recordAuditEvent(tx, {
        action: 'operator.reinvited',
        targetType: 'operator',
        targetId: operator.id,
        subjectEmail: operator.email,
        after: { role: operator.role, linkExpiresAt: expiresAt.toISOString() },
      });
    }
    await repository.addEnrolment(
      enrolmentTokenHash(ports.secretKey, token),
      operator.id,
      now,
      expiresAt,
    );
    return operator;
  });
  if (!result) return { ok: false, code: 'operatorExists' };
  return {
    ok: true,
    operator: operatorView(result),
    enrolmentUrl: `${ports.env.CONSOLE_ORIGIN}${CONSOLE_ENROL_PATH}/${token}`,
    expiresAt,
  };
}

export async function listOperators(ports: ConsolePorts): Promise<OperatorView[]> {
  return (await createOperatorRepository(ports.db).list()).map(operatorView);
}

export type OperatorChangeResult =
  | { ok: true; operator: OperatorView; sessionsEnded: number }
  | { ok: false; code: 'operatorNotFound' | 'lastOwner' | 'ownAccount' };

/** Who asks: an operator of the console (who may not change themselves), or the CLI. */
export type ChangedBy = { operatorId: string } | 'cli';

type Target = { id: string } | { email: string };

async function find(repository: ReturnType<typeof createOperatorRepository>, target: Target) {
  return 'id' in target ? repository.byId(target.id) : repository.byEmail(target.email);
}

/** Changes an operator's role; the last owner who can sign in stays an owner. */
export async function changeOperatorRole(
  ports: ConsolePorts,
  by: ChangedBy,
  target: Target,
  role: Role,
): Promise<OperatorChangeResult> {
  const now = ports.clock();
  return ports.db.transaction(async (tx): Promise<OperatorChangeResult> => {
    const repository = createOperatorRepository(tx);
    const operator = await find(repository, target);
    if (!operator) return { ok: false, code: 'operatorNotFound' };
    if (by !== 'cli' && by.operatorId === operator.id) return { ok: false, code: 'ownAccount' };
    if (operator.role === role)
      return { ok: true, operator: operatorView(operator), sessionsEnded: 0 };
    if (
      operator.role === 'owner' &&
      operator.status !== 'disabled' &&
      (await repository.enabledOwners()) <= 1
    ) {
      return { ok: false, code: 'lastOwner' };
    }
    const updated = await repository.update(operator.id, { role }, now);
    if (!updated) return { ok: false, code: 'operatorNotFound' };
    return { ok: true, operator: operatorView(updated), sessionsEnded: 0 };
  });
}

/**
 * Disables an operator: they can no longer sign in or enrol, and every session of theirs ends at
 * once. The last owner who can sign in cannot be disabled.
 */
export async function disableOperator(
  ports: ConsolePorts,
  by: ChangedBy,
  target: Target,
): Promise<OperatorChangeResult> {
  const now = ports.clock();
  return ports.db.transaction(async (tx): Promise<OperatorChangeResult> => {
    const repository = createOperatorRepository(tx);
    const operator = await find(repository, target);
    if (!operator) return { ok: false, code: 'operatorNotFound' };
    if (by !== 'cli' && by.operatorId === operator.id) return { ok: false, code: 'ownAccount' };
    if (operator.status === 'disabled') {
      return { ok: true, operator: operatorView(operator), sessionsEnded: 0 };
    }
    if (operator.role === 'owner' && (await repository.enabledOwners()) <= 1) {
      return { ok: false, code: 'lastOwner' };
    }
    const updated = await repository.update(
      operator.id,
      { status: 'disabled', disabledAt: now },
      now,
    );
    if (!updated) return { ok: false, code: 'operatorNotFound' };
    await repository.closeEnrolments(operator.id, now);
    const sessionsEnded = await createConsoleSessionRepository(tx).endAllOf(operator.id);
    return { ok: true, operator: operatorView(updated), sessionsEnded };
  });
}
