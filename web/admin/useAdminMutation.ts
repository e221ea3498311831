import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { serverMessage } from '../common/api';
import { errorToast, toast, type ToastInput } from '../common/toast';

type SuccessToast<TResult, TVars> = string | ToastInput | ((result: TResult, vars: TVars) => string | ToastInput);

export interface AdminMutationOptions<TVars, TResult> {
  mutationFn: (vars: TVars) => Promise<TResult>;
  /** Query prefixes to refetch after success (and after failure, since part of a batch may have landed). */
  invalidate?: QueryKey[];
  success?: SuccessToast<TResult, TVars>;
  /** Error toast description; the server's message wins when it sent one (SPEC §8). null: no toast. */
  error: string | null;
  onSuccess?: (result: TResult, vars: TVars) => void;
}

/**
 * Every admin change goes through here, so the SPEC §8 toast rules live in one place:
 * success toasts by text, error toasts titled 'Error' in the destructive style.
 */
export function useAdminMutation<TVars = void, TResult = unknown>(options: AdminMutationOptions<TVars, TResult>) {
  const queryClient = useQueryClient();
  const refresh = () =>
    Promise.all((options.invalidate ?? []).map((queryKey) => queryClient.invalidateQueries({ queryKey })));

  return useMutation<TResult, Error, TVars>({
    mutationFn: options.mutationFn,
    onSuccess: async (result, vars) => {
      await refresh();
      if (options.success) {
        const value = typeof options.success === 'function' ? options.success(result, vars) : options.success;
        toast(typeof value === 'string' ? { title: value } : value);
      }
      options.onSuccess?.(result, vars);
    },
    onError: async (error) => {
      await refresh();
      if (options.error !== null) errorToast(serverMessage(error) ?? options.error);
    },
  });
}
