import { useQueryClient } from '@tanstack/react-query';
import { Button } from '../../ui/Button.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { ShieldIcon } from '../../ui/icons.tsx';
import { useAuth } from '../auth/AuthProvider.tsx';
import { type AdminMe, adminKeys } from './queries.ts';

/** The admin area's first screen; its sections arrive in the admin issue. */
export function AdminDashboard() {
  const { user, signOut } = useAuth();
  const admin = useQueryClient().getQueryData<AdminMe>(adminKeys.me(user?.uid ?? null));
  return (
    <main className="mx-auto flex min-h-dvh w-full max-w-3xl flex-col bg-white">
      <header className="flex items-center justify-between border-b border-line px-5 py-4">
        <div>
          <p className="text-lg font-bold text-ink">FMK Admin</p>
          <p className="text-sm text-muted">
            {user?.email} {admin ? `· ${admin.role.replace('_', ' ')}` : ''}
          </p>
        </div>
        <Button variant="secondary" className="min-h-10 px-4 text-sm" onClick={() => void signOut()}>
          Sign out
        </Button>
      </header>
      <section className="px-5 py-6">
        <h1 className="text-2xl font-bold text-ink">Dashboard</h1>
        <EmptyState
          icon={<ShieldIcon />}
          title="Nothing needs review"
          body="Reports, pending photos and new sign-ups will be summarised here."
        />
      </section>
    </main>
  );
}
