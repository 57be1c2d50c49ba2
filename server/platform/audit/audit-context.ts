import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Who acts (decision 224): `operator:<id>`, `cli:<os user>`, `customer:<normalized address>`,
 * `system:<job>` or `stripe:<event id>`. The audit log writes a customer actor as `customer` in
 * its chain and the address in the event's details only.
 */
export type Actor =
  | `operator:${string}`
  | `cli:${string}`
  | `customer:${string}`
  | `system:${string}`
  | `stripe:${string}`;

const ACTOR_PATTERN = /^(operator|cli|customer|system|stripe):[^\s]{1,200}$/;

export function isActor(value: string): value is Actor {
  return ACTOR_PATTERN.test(value);
}

/** The actor for a customer known by the normalized form of their address. */
export function customerActor(normalizedAddress: string): Actor {
  const actor = `customer:${normalizedAddress}`;
  return isActor(actor) ? actor : 'customer:unknown';
}

/** What every audit row written while it is current records besides the change itself. */
export interface AuditContext {
  actor: Actor;
  /** Why, as the operator typed it (required for an operator's licence action). */
  reason?: string;
  requestId?: string;
}

const storage = new AsyncLocalStorage<AuditContext>();

/** Runs `work` with `context` as the actor of every change it makes. */
export function actingAs<T>(context: AuditContext, work: () => T): T {
  return storage.run({ ...context }, work);
}

/** The context of the work running now, if any. */
export function currentAuditContext(): AuditContext | undefined {
  return storage.getStore();
}

/**
 * Names the actor more exactly once the work knows it (a handler that has checked a customer's
 * link: `customer:<address>`), for the rest of the current context. Outside one it does nothing.
 */
export function attribute(update: Partial<AuditContext>): void {
  const context = storage.getStore();
  if (!context) return;
  if (update.actor) context.actor = update.actor;
  if (update.reason !== undefined) context.reason = update.reason;
  if (update.requestId !== undefined) context.requestId = update.requestId;
}
