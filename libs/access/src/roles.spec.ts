import { Identity, permit, visibleGroups } from './roles';

const token = (name: string, role: Identity['role'], groups: string[] | null = null): Identity => ({
  name,
  role,
  groups,
  sources: null,
});

describe('operator roles', () => {
  const viewer = token('ci-viewer', 'viewer');
  const operator = token('night-ops', 'operator');
  const admin = token('root', 'admin');
  const status = { ...token('shop-status', 'status'), sources: ['shop'] };
  const ledgerOps = token('ledger-ops', 'operator', ['ledger']);

  it('lets a viewer read, and names the role it lacks for anything else', () => {
    expect(permit(viewer, 'read')).toEqual({ allowed: true });
    expect(permit(viewer, 'operate')).toEqual({
      allowed: false,
      missing: "this needs the operator role; token 'ci-viewer' is a viewer",
    });
    expect(permit(viewer, 'administer')).toEqual({
      allowed: false,
      missing: "this needs the admin role; token 'ci-viewer' is a viewer",
    });
  });

  it('lets an operator read and operate, not administer', () => {
    expect(permit(operator, 'read')).toEqual({ allowed: true });
    expect(permit(operator, 'operate', 'payments')).toEqual({ allowed: true });
    expect(permit(operator, 'administer')).toEqual({
      allowed: false,
      missing: "this needs the admin role; token 'night-ops' is an operator",
    });
  });

  it('lets an admin do everything, on every group', () => {
    for (const need of ['read', 'operate', 'administer'] as const)
      expect(permit(admin, need, 'ledger')).toEqual({ allowed: true });
  });

  it('gives a status token nothing in /admin', () => {
    for (const need of ['read', 'operate', 'administer'] as const)
      expect(permit(status, need)).toEqual({
        allowed: false,
        missing: "token 'shop-status' is a status token: it may read event status only, nothing in /admin",
      });
  });

  it('keeps a token limited to groups inside them, for reading too', () => {
    expect(permit(ledgerOps, 'operate', 'ledger')).toEqual({ allowed: true });
    expect(permit(ledgerOps, 'read', 'ledger')).toEqual({ allowed: true });
    // Without a group (a list across groups): allowed, filtered by visibleGroups.
    expect(permit(ledgerOps, 'read')).toEqual({ allowed: true });
    const refused = {
      allowed: false,
      missing: "token 'ledger-ops' may not act on group 'payments' (its groups: ledger)",
    };
    expect(permit(ledgerOps, 'operate', 'payments')).toEqual(refused);
    expect(permit(ledgerOps, 'read', 'payments')).toEqual(refused);
  });

  it('checks the role before the groups', () => {
    expect(permit(token('ledger-viewer', 'viewer', ['ledger']), 'operate', 'ledger')).toEqual({
      allowed: false,
      missing: "this needs the operator role; token 'ledger-viewer' is a viewer",
    });
  });

  it('shows every group to an unlimited token, its own to a limited one, none to a status token', () => {
    expect(visibleGroups(admin)).toBeNull();
    expect(visibleGroups(viewer)).toBeNull();
    expect(visibleGroups(token('two', 'viewer', ['ledger', 'notifier']))).toEqual(['ledger', 'notifier']);
    expect(visibleGroups(status)).toEqual([]);
  });
});
