import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { Clapperboard, LogOut, Radio } from 'lucide-react';
import { api } from '../common/api';
import { clearAdminLogin } from '../common/auth';
import { Button } from '../common/ui/Button';
import type { Session } from './types';

export function liveLabel(count: number): string {
  return `${count} LIVE SESSION${count === 1 ? '' : 'S'}`;
}

export function DashboardHeader() {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const { data: sessions } = useQuery<Session[]>({ queryKey: ['/api/admin/sessions'] });
  const liveCount = sessions?.filter((s) => s.status === 'live').length ?? 0;

  async function logout() {
    // Revoke the token on the server; leaving must work even when that call fails.
    await api.post('/api/admin/logout').catch(() => undefined);
    clearAdminLogin();
    queryClient.clear();
    navigate('/admin/login');
  }

  return (
    <header className="sticky top-0 z-40 border-b border-border bg-background/90 backdrop-blur">
      <div className="mx-auto flex max-w-7xl items-center justify-between gap-2 px-4 py-3 sm:gap-4 sm:px-6">
        <div className="flex min-w-0 items-center gap-3">
          {/* On a phone the mark gives its room to the title, which would otherwise run under the live badge. */}
          <span className="hidden size-10 shrink-0 items-center justify-center rounded-lg bg-primary/15 sm:flex">
            <Clapperboard className="size-5 text-primary" aria-hidden />
          </span>
          <div className="min-w-0">
            <p className="text-lg font-bold leading-tight">Marquee</p>
            <h1 className="text-sm leading-tight text-muted">Admin Dashboard</h1>
          </div>
        </div>
        <div className="flex shrink-0 items-center gap-2 sm:gap-3">
          {liveCount > 0 && (
            <span
              role="status"
              className="flex items-center gap-1.5 rounded-full border border-red-500/50 bg-red-500/10 px-2 py-1 text-[0.6875rem] font-bold tracking-wide whitespace-nowrap text-red-200 sm:gap-2 sm:px-3 sm:text-xs"
            >
              <Radio className="size-4 animate-pulse text-red-400" aria-hidden />
              {liveLabel(liveCount)}
            </span>
          )}
          <Button variant="outline" size="sm" onClick={logout}>
            <LogOut aria-hidden />
            <span className="sr-only sm:not-sr-only">Logout</span>
          </Button>
        </div>
      </div>
    </header>
  );
}
