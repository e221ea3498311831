import { useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { Clapperboard } from 'lucide-react';
import { HttpError, apiRequest, serverMessage } from '../common/api';
import { storeAdminLogin, type AdminUser } from '../common/auth';
import { toast } from '../common/toast';
import { Button } from '../common/ui/Button';
import { Card } from '../common/ui/Card';
import { Input } from '../common/ui/Field';
import { useDocumentTitle } from '../common/ui/useDocumentTitle';
import { FormField } from './ui/Form';

interface LoginResponse {
  token: string;
  user: AdminUser;
}

/** SPEC §2 Admin login and §4 Login form: idle → submitting → idle, success goes to /admin. */
export default function LoginPage() {
  const [, navigate] = useLocation();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [submitting, setSubmitting] = useState(false);
  useDocumentTitle('Admin Login');

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitting(true);
    try {
      const result = await apiRequest<LoginResponse>('POST', '/api/admin/login', { username, password });
      storeAdminLogin(result.token, result.user);
      navigate('/admin');
    } catch (error) {
      if (error instanceof HttpError) {
        toast({
          title: 'Login failed',
          description: serverMessage(error) ?? 'Invalid credentials',
          variant: 'destructive',
        });
      } else {
        toast({ title: 'Error', description: 'Failed to connect to server', variant: 'destructive' });
      }
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <main className="flex min-h-screen items-center justify-center bg-[radial-gradient(ellipse_at_top,_#2a0f12,_transparent_60%)] p-4">
      <Card className="w-full max-w-md p-8">
        <div className="mb-8 flex flex-col items-center gap-3 text-center">
          <span className="flex size-14 items-center justify-center rounded-full bg-primary/15">
            <Clapperboard className="size-7 text-primary" aria-hidden />
          </span>
          <h1 className="text-3xl font-bold tracking-tight">Marquee</h1>
          <p className="text-muted">Admin Dashboard Access</p>
        </div>
        <form className="grid gap-5" onSubmit={onSubmit}>
          <FormField id="login-username" label="Username">
            {(field) => (
              <Input {...field} name="username" autoComplete="username" placeholder="Enter your username" required value={username} onChange={(e) => setUsername(e.target.value)} />
            )}
          </FormField>
          <FormField id="login-password" label="Password">
            {(field) => (
              <Input
                {...field}
                name="password"
                type="password"
                autoComplete="current-password"
                placeholder="Enter your password"
                required
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            )}
          </FormField>
          <Button type="submit" size="lg" className="mt-2 w-full" disabled={submitting}>
            {submitting ? 'Logging in...' : 'Login to Admin Dashboard'}
          </Button>
        </form>
      </Card>
    </main>
  );
}
