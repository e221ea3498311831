import { useLocation } from 'wouter';
import { Film } from 'lucide-react';
import { Button } from './ui/Button';
import { useDocumentTitle } from './ui/useDocumentTitle';

export default function NotFound() {
  const [, navigate] = useLocation();
  useDocumentTitle('Page Not Found');
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-6 p-6 text-center">
      <Film className="size-14 text-primary" aria-hidden />
      <h1 className="text-3xl font-bold">Page Not Found</h1>
      <p className="max-w-md text-muted">The page you are looking for does not exist or has moved.</p>
      <Button size="lg" onClick={() => navigate('/')}>
        Go Home
      </Button>
    </main>
  );
}
