import { useEffect, useRef, useState } from 'react';
import type Uppy from '@uppy/core';
import Dashboard from '@uppy/react/dashboard';
import '@uppy/core/css/style.min.css';
import '@uppy/dashboard/css/style.min.css';
import { createUploader, type UploaderOptions } from './uploader';
import { mediaKind, objectIdFromUploadUrl } from './mediaPaths';

export interface UploadedFile {
  objectId: string;
  fileName: string;
  kind: 'video' | 'image';
  contentType: string;
}

export interface UppyUploaderProps extends UploaderOptions {
  note: string;
  height?: number;
  /** A file reached storage and its address could be read. */
  onUploaded: (file: UploadedFile) => void;
  /** The upload itself failed. */
  onUploadError?: () => void;
  /** Stored, but the object id could not be read from the answer. */
  onProcessingError?: () => void;
  /** A batch finished; `succeeded` counts files that reached storage. */
  onComplete?: (succeeded: number) => void;
  /** Changes to this value clear the widget (a new form). */
  resetKey?: unknown;
}

/**
 * Uppy's dashboard (drag and drop, restrictions and their messages, progress, retry) in a React
 * component. The Uppy instance is made in an effect so React's double mount cannot keep a
 * destroyed one; handlers are read through a ref so callers may pass fresh closures.
 */
export function UppyUploader(props: UppyUploaderProps) {
  const { id, kind, maxFileSize, allowedFileTypes, multipart, note, height = 220, resetKey } = props;
  const [uppy, setUppy] = useState<Uppy | null>(null);
  const handlers = useRef(props);
  handlers.current = props;

  useEffect(() => {
    const instance = createUploader({ id, kind, maxFileSize, allowedFileTypes, multipart });
    instance.on('upload-success', (file, response) => {
      const objectId = objectIdFromUploadUrl(response.uploadURL);
      if (!file || !objectId) {
        handlers.current.onProcessingError?.();
        return;
      }
      const contentType = file.type || 'application/octet-stream';
      handlers.current.onUploaded({ objectId, fileName: file.name ?? objectId, kind: mediaKind(contentType), contentType });
    });
    instance.on('upload-error', () => handlers.current.onUploadError?.());
    instance.on('complete', (result) => handlers.current.onComplete?.(result.successful?.length ?? 0));
    setUppy(instance);
    return () => {
      instance.destroy();
      setUppy(null);
    };
    // allowedFileTypes is a literal array at every call site; its content is what matters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id, kind, maxFileSize, multipart, allowedFileTypes.join(','), resetKey]);

  if (!uppy) return <div style={{ height }} />;
  return (
    <Dashboard
      uppy={uppy}
      height={height}
      width="100%"
      note={note}
      theme="dark"
      proudlyDisplayPoweredByUppy={false}
      hideUploadButton
      showRemoveButtonAfterComplete={false}
    />
  );
}
