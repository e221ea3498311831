import { lazy, Suspense } from 'react';
import type { UppyUploaderProps } from './UppyUploader';

// Uppy and its styles are the heaviest part of the admin: load them when an upload dialog opens.
const UppyUploader = lazy(() => import('./UppyUploader').then((m) => ({ default: m.UppyUploader })));

export function LazyUploader(props: UppyUploaderProps) {
  return (
    <Suspense
      fallback={
        <div role="status" className="flex items-center justify-center text-sm text-muted" style={{ height: props.height ?? 220 }}>
          Loading uploader...
        </div>
      }
    >
      <UppyUploader {...props} />
    </Suspense>
  );
}
