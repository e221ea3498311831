import type { ReactNode } from 'react';

/** Heading, subtitle and the tab's main action, the same on every tab. */
export function TabHeader({ title, subtitle, action }: { title: string; subtitle?: string; action?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
      <div>
        <h2 className="text-2xl font-bold">{title}</h2>
        {subtitle && <p className="text-sm text-muted">{subtitle}</p>}
      </div>
      {action}
    </div>
  );
}

export function EmptyState({ children }: { children: ReactNode }) {
  return (
    <div className="rounded-xl border border-dashed border-border px-6 py-16 text-center text-muted">{children}</div>
  );
}

export function LoadingText({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="py-16 text-center text-muted">
      {children}
    </p>
  );
}

export function LoadError({ error }: { error: unknown }) {
  return (
    <p role="alert" className="py-16 text-center text-red-300">
      Could not load: {error instanceof Error ? error.message : 'unknown error'}
    </p>
  );
}
