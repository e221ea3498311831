import { useSyncExternalStore } from 'react';

/**
 * Notifications (SPEC §9): one visible at a time, shown 5000 ms by default. A new toast
 * replaces the one on screen, so the store holds a single entry; callers anywhere (mutation
 * handlers, the API layer) use `toast()` without a hook.
 */
export const TOAST_DURATION_MS = 5000;

export type ToastVariant = 'default' | 'destructive';

export interface ToastEntry {
  id: number;
  title: string;
  description?: string;
  variant: ToastVariant;
  durationMs: number;
}

export interface ToastInput {
  title: string;
  description?: string;
  variant?: ToastVariant;
  durationMs?: number;
}

let current: ToastEntry | null = null;
let nextId = 1;
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

export function toast(input: ToastInput): void {
  current = {
    id: nextId++,
    title: input.title,
    description: input.description,
    variant: input.variant ?? 'default',
    durationMs: input.durationMs ?? TOAST_DURATION_MS,
  };
  emit();
}

/** Shorthand for the admin's error toasts: title 'Error', destructive style (SPEC §8). */
export function errorToast(description: string): void {
  toast({ title: 'Error', description, variant: 'destructive' });
}

export function dismissToast(id: number): void {
  if (current?.id !== id) return;
  current = null;
  emit();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useCurrentToast(): ToastEntry | null {
  return useSyncExternalStore(subscribe, () => current);
}
