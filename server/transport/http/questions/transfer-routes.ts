import { z } from 'zod';
import type { RouteModule } from '../context.js';
import { fileBytes, registerFileRoutes } from '../file-upload.js';
import { questionCsvTemplate, questionsToCsv } from '../../../domain/questions/csv-format.js';
import { importQuestions } from '../../../domain/questions/import.js';
import { IMPORT_MAX_BYTES, IMPORT_MAX_ROWS } from '../../../domain/questions/import-rules.js';
import { questionsToJson } from '../../../domain/questions/json-format.js';

const tags = ['questions'];
const format = z.enum(['csv', 'json'], { message: 'format must be csv or json' }).default('csv');
const exportQuery = z.object({ format });
const importQuery = z.object({
  format,
  dryRun: z.enum(['true', 'false'], { message: 'dryRun must be true or false' }).default('false').transform((v) => v === 'true'),
});

const TOO_LARGE = `The file is larger than ${IMPORT_MAX_BYTES / 1024 / 1024} MB. Split it into smaller files and import them one by one.`;

function sendFile(reply: { header(name: string, value: string): unknown }, fileName: string, kind: 'csv' | 'json'): void {
  reply.header('content-type', kind === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8');
  reply.header('content-disposition', `attachment; filename="${fileName}"`);
  reply.header('cache-control', 'no-store');
}

/** Question bank export, template and import (DESIGN §11). */
export const questionTransferRoutes: RouteModule = (app, { store }) => {
  app.get(
    '/api/admin/questions/export',
    { schema: { tags, querystring: exportQuery, description: 'The whole question bank as a CSV or JSON file, ready to import again.' } },
    async (request, reply) => {
      const questions = await store.questions.list();
      const kind = request.query.format;
      sendFile(reply, `marquee-questions.${kind}`, kind);
      return kind === 'csv' ? questionsToCsv(questions) : questionsToJson(questions);
    },
  );

  app.get(
    '/api/admin/questions/template.csv',
    { schema: { tags, description: 'An example CSV file with the header and one question.' } },
    async (_request, reply) => {
      sendFile(reply, 'marquee-questions-template.csv', 'csv');
      return questionCsvTemplate();
    },
  );

  // The body is the file's raw bytes whatever its content type, up to 5 MB.
  registerFileRoutes(app, IMPORT_MAX_BYTES, TOO_LARGE, (files) => {
    files.post(
      '/api/admin/questions/import',
      {
        bodyLimit: IMPORT_MAX_BYTES,
        schema: {
          tags,
          querystring: importQuery,
          consumes: ['text/csv', 'application/json', 'text/plain'],
          description:
            `Body: the file's text (UTF-8, at most 5 MB and ${IMPORT_MAX_ROWS} questions). Answers { imported, skipped, questions? } ` +
            '(questions: the preview, on a dry run only). Any bad row: 400 { message, errors: [{ line, message }] } and nothing is stored.',
        },
      },
      async (request) => importQuestions(store, fileBytes(request.body), request.query.format, request.query.dryRun),
    );
  });
};
