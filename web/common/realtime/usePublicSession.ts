import { useEffect, useState } from 'react';
import { HttpError, api } from '../api';
import type { PublicSessionInfo } from '../../../protocol/index';

/** `GET /api/sessions/{id}`: what a display or a phone needs before the socket speaks. */
export type PublicSession = PublicSessionInfo;

export type PublicSessionResult =
  | { state: 'loading' }
  | { state: 'ready'; session: PublicSession }
  | { state: 'not_found' }
  | { state: 'error'; message: string };

/** Loaded once per screen (SPEC §9: no refetch on focus, no polling, no retries). */
export function usePublicSession(sessionId: string): PublicSessionResult {
  const [result, setResult] = useState<PublicSessionResult>({ state: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    setResult({ state: 'loading' });
    api
      .get<PublicSession>(`/api/sessions/${encodeURIComponent(sessionId)}`, { signal: controller.signal })
      .then((session) => setResult({ state: 'ready', session }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        if (error instanceof HttpError && (error.status === 404 || error.status === 400)) setResult({ state: 'not_found' });
        else setResult({ state: 'error', message: error instanceof Error ? error.message : String(error) });
      });
    return () => controller.abort();
  }, [sessionId]);
  return result;
}
