import { QueryClientProvider } from '@tanstack/react-query';
import { Redirect } from 'wouter';
import { getAdminToken } from '../common/auth';
import { Dashboard } from './Dashboard';
import { queryClient } from './queryClient';

/** /admin: only with a stored admin token (SPEC §6), otherwise to the login screen. */
export default function AdminPage() {
  if (!getAdminToken()) return <Redirect to="/admin/login" replace />;
  return (
    <QueryClientProvider client={queryClient}>
      <Dashboard />
    </QueryClientProvider>
  );
}
