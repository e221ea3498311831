/**
 * Runs an import: read the file in its format, leave out duplicates, store the rest in one
 * transaction (or, on a dry run, only say what would be stored).
 */
import type { ImportResult, QuestionFileFormat } from '../../../protocol/api.js';
import type { Store } from '../../storage/store.js';
import { parseQuestionCsv } from './csv-format.js';
import { decodeUtf8 } from '../files/csv-table.js';
import { planImport, textKey } from './import-rules.js';
import { parseQuestionJson } from './json-format.js';

export type { QuestionFileFormat, ImportResult };

export function readQuestionFile(bytes: Uint8Array, format: QuestionFileFormat) {
  const content = decodeUtf8(bytes);
  return format === 'csv' ? parseQuestionCsv(content) : parseQuestionJson(content);
}

export async function importQuestions(store: Store, bytes: Uint8Array, format: QuestionFileFormat, dryRun: boolean): Promise<ImportResult> {
  const rows = readQuestionFile(bytes, format);
  return store.db.transaction().execute(async (trx) => {
    const bank = new Set((await store.questions.texts(trx)).map(textKey));
    const { fresh, skipped } = planImport(rows, bank);
    if (dryRun) return { imported: fresh.length, skipped, questions: fresh };
    await store.questions.insertMany(
      trx,
      fresh.map((q) => ({ ...q, mediaId: null })),
    );
    return { imported: fresh.length, skipped };
  });
}
