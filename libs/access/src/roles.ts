/**
 * What an operator token may do in the operator API, decided from its identity alone (no I/O): `viewer` reads,
 * `operator` reads and acts (replays, retries, enables), `admin` does everything, including what hands out or destroys
 * access and data (tokens, endpoints' secrets, purges). A `status` token reads event status, of its sources only,
 * and nothing under /admin. A token limited to groups reads and acts on those groups only.
 */
export const ROLES = ['viewer', 'operator', 'admin', 'status'] as const;
export type Role = (typeof ROLES)[number];

/** Who made a request: a token's name and what it was given. */
export interface Identity {
  name: string;
  role: Role;
  /** The consumer groups the token is limited to; null: every group. */
  groups: string[] | null;
  /** For a `status` token, the event sources whose status it may read; null: every source. */
  sources: string[] | null;
}

export type Need = 'read' | 'operate' | 'administer';

export type Permission = { allowed: true } | { allowed: false; missing: string };

/** The role each need takes at least; `status` is not on the ladder. */
const LADDER: readonly Role[] = ['viewer', 'operator', 'admin'];
const NEEDED: Record<Need, Role> = { read: 'viewer', operate: 'operator', administer: 'admin' };

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** Whether the identity may do what `need` names, on `group` when the action concerns one group. */
export function permit(identity: Identity, need: Need, group?: string): Permission {
  const required = NEEDED[need];
  if (identity.role === 'status')
    return refuse(`token '${identity.name}' is a status token: it may read event status only, nothing in /admin`);
  if (LADDER.indexOf(identity.role) < LADDER.indexOf(required))
    return refuse(`this needs the ${required} role; token '${identity.name}' is ${withArticle(identity.role)}`);
  if (group !== undefined && identity.groups !== null && !identity.groups.includes(group))
    return refuse(
      `token '${identity.name}' may not act on group '${group}' (its groups: ${identity.groups.join(', ')})`,
    );
  return { allowed: true };
}

/** The groups whose rows the identity may see; null: every group. */
export function visibleGroups(identity: Identity): string[] | null {
  if (identity.role === 'status') return [];
  return identity.groups === null ? null : [...identity.groups];
}

function refuse(missing: string): Permission {
  return { allowed: false, missing };
}

/** `a viewer`, `an admin`. */
export function withArticle(role: Role): string {
  return `${/^[aeiou]/.test(role) ? 'an' : 'a'} ${role}`;
}
