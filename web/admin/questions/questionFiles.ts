import { HttpError } from '../../common/api';
import { getAdminToken } from '../../common/auth';
import type { ImportResult, QuestionFileFormat } from '../../../protocol/api';

export type { ImportedQuestion, ImportResult, QuestionFileFormat } from '../../../protocol/api';

export interface ImportFailure {
  message: string;
  errors: { line: number; message: string }[];
}

export const formatOfFile = (name: string): QuestionFileFormat => (name.toLowerCase().endsWith('.json') ? 'json' : 'csv');

const authHeaders = (): Record<string, string> => {
  const token = getAdminToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
};

/** Downloads an admin file (export, template) under its own name, with the admin's token. */
export async function downloadAdminFile(url: string, fileName: string): Promise<void> {
  const response = await fetch(url, { headers: authHeaders(), credentials: 'include' });
  if (!response.ok) throw new HttpError(response.status, await response.text().catch(() => ''), response.statusText);
  const link = document.createElement('a');
  link.href = URL.createObjectURL(await response.blob());
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

/** Sends a file's bytes as they are to an import route: the server checks the encoding and reports lines. */
export async function postAdminFile<T>(url: string, file: File, contentType = 'text/csv'): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...authHeaders(), 'Content-Type': contentType },
    body: file,
    credentials: 'include',
  });
  const text = await response.text().catch(() => '');
  if (!response.ok) throw new HttpError(response.status, text, response.statusText);
  return JSON.parse(text) as T;
}

export function postQuestionFile(file: File, dryRun: boolean): Promise<ImportResult> {
  const format = formatOfFile(file.name);
  return postAdminFile<ImportResult>(`/api/admin/questions/import?format=${format}&dryRun=${dryRun}`, file, format === 'json' ? 'application/json' : 'text/csv');
}

/** An import's refusal (400/409 with line errors, 413 too large), or a plain message for anything else. */
export function importFailure(error: unknown): ImportFailure {
  if (error instanceof HttpError) {
    try {
      const body = JSON.parse(error.bodyText) as Partial<ImportFailure>;
      if (typeof body.message === 'string') return { message: body.message, errors: Array.isArray(body.errors) ? body.errors : [] };
    } catch {
      // not JSON: fall through
    }
  }
  return { message: 'The file could not be read. Please try again.', errors: [] };
}
