import { Toast } from 'radix-ui';
import { X } from 'lucide-react';
import { dismissToast, useCurrentToast } from './toast';

/** Renders the single current toast; Radix handles timing, swipe, focus hotkey (F8) and announcements. */
export function Toaster() {
  const entry = useCurrentToast();
  const destructive = entry?.variant === 'destructive';
  return (
    <Toast.Provider swipeDirection="left" duration={entry?.durationMs}>
      {entry && (
        <Toast.Root
          key={entry.id}
          duration={entry.durationMs}
          onOpenChange={(open) => {
            if (!open) dismissToast(entry.id);
          }}
          data-testid="toast"
          data-variant={entry.variant}
          className={`toast-root relative flex w-full items-start gap-3 rounded-lg border p-4 pr-10 shadow-xl ${
            destructive
              ? 'border-red-700 bg-red-700 text-white'
              : 'border-border bg-surface-2 text-foreground'
          }`}
        >
          <div className="grid gap-1">
            <Toast.Title className="text-sm font-semibold">{entry.title}</Toast.Title>
            {entry.description && (
              <Toast.Description className={`text-sm ${destructive ? 'text-red-50' : 'text-muted'}`}>
                {entry.description}
              </Toast.Description>
            )}
          </div>
          <Toast.Close
            aria-label="Close notification"
            className="absolute right-2 top-2 rounded p-1 opacity-80 hover:opacity-100"
          >
            <X className="size-4" aria-hidden />
          </Toast.Close>
        </Toast.Root>
      )}
      {/* Bottom left: dialogs keep their action buttons bottom right, where a toast would cover them. */}
      <Toast.Viewport className="fixed bottom-0 left-0 z-[100] m-0 flex w-full max-w-sm list-none flex-col gap-2 p-4 outline-none" />
    </Toast.Provider>
  );
}
