/** Fallback while a lazily loaded route tree arrives. */
export function PageLoader({ text = 'Loading...' }: { text?: string }) {
  return (
    <div role="status" className="flex min-h-screen items-center justify-center text-muted">
      {text}
    </div>
  );
}
