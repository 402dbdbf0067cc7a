import type { Role } from '#store';
import type { Actor } from './actor.ts';
import { AdminError } from './errors.ts';

/** What an operation needs of the account it touches. */
export type Need = 'read' | 'write' | 'owner';

/** Viewers read; developers also change projects, clients, API keys and tokens; owners also people. */
const ALLOWS: Readonly<Record<Role, readonly Need[]>> = {
  owner: ['read', 'write', 'owner'],
  developer: ['read', 'write'],
  viewer: ['read'],
};

export function isOperator(actor: Actor): boolean {
  return actor.kind !== 'person';
}

/** The actor's role in the account: 'operator' for the operator, undefined for a stranger. */
export function roleIn(actor: Actor, accountId: string): Role | 'operator' | undefined {
  if (actor.kind !== 'person') return 'operator';
  return Object.hasOwn(actor.roles, accountId) ? actor.roles[accountId] : undefined;
}

/** Whether the actor sees the account at all: a stranger gets the same 404 as for nothing there. */
export function sees(actor: Actor, accountId: string): boolean {
  return roleIn(actor, accountId) !== undefined;
}

/**
 * Refuses a member whose role does not allow the change (403: they see the thing, so a 404 would
 * be a lie). Strangers never get here: every operation first looks the thing up with `sees`.
 */
export function requireRole(actor: Actor, accountId: string, need: Need): void {
  const role = roleIn(actor, accountId);
  if (role === 'operator') return;
  if (role === undefined || !ALLOWS[role].includes(need))
    throw new AdminError('forbidden', roleMessage(need, role ?? 'viewer'));
}

function roleMessage(need: Need, role: Role): string {
  if (need === 'owner') return `only an owner of the account may do this (your role: ${role})`;
  return `your role (${role}) may look but not change anything in this account`;
}

/** Operations of the operator alone (accounts, plans, signing keys, the address data set). */
export function requireOperator(actor: Actor): void {
  if (!isOperator(actor)) throw new AdminError('forbidden', 'only the operator may do this');
}
