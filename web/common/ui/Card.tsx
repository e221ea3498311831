import type { HTMLAttributes } from 'react';
import { cn } from './cn';

export function Card({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn('rounded-xl border border-border bg-surface shadow-sm', className)} {...props} />;
}

export function Badge({
  className,
  tone = 'neutral',
  ...props
}: HTMLAttributes<HTMLSpanElement> & { tone?: 'neutral' | 'primary' | 'success' | 'warning' | 'info' | 'danger' }) {
  const tones = {
    neutral: 'bg-surface-2 text-foreground border-border',
    primary: 'bg-primary/15 text-red-200 border-primary/40',
    success: 'bg-green-500/15 text-green-300 border-green-500/40',
    warning: 'bg-amber-500/15 text-amber-200 border-amber-500/40',
    info: 'bg-indigo-500/15 text-indigo-200 border-indigo-500/40',
    danger: 'bg-red-500/15 text-red-200 border-red-500/40',
  } as const;
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 rounded-full border px-2 py-0.5 text-xs font-semibold',
        tones[tone],
        className,
      )}
      {...props}
    />
  );
}
