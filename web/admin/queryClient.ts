import { QueryClient, type QueryFunctionContext, type QueryKey } from '@tanstack/react-query';
import { api } from '../common/api';

/**
 * Query keys are URLs: string parts are joined with '/', an object part becomes the query string.
 * ['/api/admin/sessions', id, 'items'] → /api/admin/sessions/{id}/items. Prefix invalidation
 * then follows the REST hierarchy.
 */
export function urlFromKey(key: QueryKey): string {
  const path: string[] = [];
  const params = new URLSearchParams();
  for (const part of key) {
    if (part && typeof part === 'object') {
      for (const [name, value] of Object.entries(part)) {
        if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
      }
    } else if (part !== undefined && part !== null) {
      path.push(String(part));
    }
  }
  const query = params.toString();
  return query ? `${path.join('/')}?${query}` : path.join('/');
}

async function defaultQueryFn({ queryKey, signal }: QueryFunctionContext): Promise<unknown> {
  return api.get(urlFromKey(queryKey), { signal });
}

// SPEC §9: no refetch on focus, no polling, data never stale, no retries.
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      queryFn: defaultQueryFn,
      refetchOnWindowFocus: false,
      refetchInterval: false,
      staleTime: Infinity,
      retry: false,
    },
    mutations: { retry: false },
  },
});
