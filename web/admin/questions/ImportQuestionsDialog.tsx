import { plural } from '../../common/format';
import { useQueryClient } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { errorToast, toast } from '../../common/toast';
import { Button } from '../../common/ui/Button';
import { HelpText } from '../../common/ui/Field';
import { keys } from '../queries';
import { AppDialog } from '../ui/Dialog';
import { FileField } from '../ui/Form';
import { useOpenedState } from '../ui/useOpenedState';
import { downloadAdminFile, importFailure, postQuestionFile, type ImportFailure, type ImportResult } from './questionFiles';

const LETTERS = ['A', 'B', 'C', 'D'];
/** The preview lists this many new questions; the counts cover them all. */
const PREVIEW_ROWS = 50;

type Step =
  | { kind: 'choose' }
  | { kind: 'checking'; file: File }
  | { kind: 'preview'; file: File; result: ImportResult }
  | { kind: 'invalid'; file: File; failure: ImportFailure }
  | { kind: 'importing'; file: File; result: ImportResult };

/**
 * Import from a spreadsheet (DESIGN §11): choosing a file runs a dry run, the preview shows what
 * would be added, what is skipped as a duplicate and every error with its line; nothing is stored
 * until Import is pressed, and then all or nothing.
 */
export function ImportQuestionsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [step, setStep] = useOpenedState<Step>(open, () => ({ kind: 'choose' }));
  const queryClient = useQueryClient();

  async function check(file: File) {
    setStep({ kind: 'checking', file });
    try {
      setStep({ kind: 'preview', file, result: await postQuestionFile(file, true) });
    } catch (error) {
      setStep({ kind: 'invalid', file, failure: importFailure(error) });
    }
  }

  async function confirm() {
    if (step.kind !== 'preview') return;
    setStep({ kind: 'importing', file: step.file, result: step.result });
    try {
      const done = await postQuestionFile(step.file, false);
      await queryClient.invalidateQueries({ queryKey: keys.questions });
      toast({ title: `${plural(done.imported, 'question')} imported`, description: done.skipped ? `${plural(done.skipped, 'duplicate')} skipped` : undefined });
      onClose();
    } catch (error) {
      // Someone changed the bank meanwhile, or the server refused after all: show why, store nothing.
      setStep({ kind: 'invalid', file: step.file, failure: importFailure(error) });
    }
  }

  const template = () => downloadAdminFile('/api/admin/questions/template.csv', 'marquee-questions-template.csv').catch(() => errorToast('Failed to download the template'));
  const result = step.kind === 'preview' || step.kind === 'importing' ? step.result : null;

  return (
    <AppDialog
      open={open}
      onOpenChange={(next) => !next && onClose()}
      size="xl"
      title="Import Questions"
      description="A CSV (comma-separated, UTF-8) or JSON file. You see what will be added before anything is stored."
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={confirm} disabled={step.kind !== 'preview' || step.result.imported === 0}>
            {step.kind === 'importing' ? 'Importing...' : result ? `Import ${plural(result.imported, 'question')}` : 'Import'}
          </Button>
        </>
      }
    >
      <div className="grid gap-4">
        <div className="flex flex-wrap items-end gap-4">
          <FileField id="import-file" label="Question file" accept=".csv,.json,text/csv,application/json" onFile={(file) => void check(file)} />
          <Button variant="outline" size="sm" onClick={template}>
            <Download aria-hidden />
            Download template
          </Button>
        </div>
        <HelpText>
          Columns: text, choice_a to choice_d, correct (A–D), points, time_limit_seconds, categories (separated by |). Up to 5 MB and
          10,000 questions. Questions already in the bank (same text) are skipped.
        </HelpText>
        {step.kind === 'checking' && <p role="status">Checking {step.file.name}...</p>}
        {step.kind === 'invalid' && <ImportErrors failure={step.failure} />}
        {result && <ImportPreview result={result} />}
      </div>
    </AppDialog>
  );
}

/** An import's refusal: its message and every problem with its line (the question and showtime imports). */
export function ImportErrors({ failure }: { failure: ImportFailure }) {
  return (
    <div className="grid gap-2" data-testid="import-errors">
      <p role="alert" className="font-semibold text-red-300">
        {failure.message}
      </p>
      {failure.errors.length > 0 && (
        // A wide table pans sideways inside the dialog on a phone; the dialog itself keeps its width.
        <div className="overflow-x-auto" data-scroll-x>
        <table className="w-full text-left text-sm">
          <thead>
            <tr className="text-muted">
              <th className="w-20 py-1">Line</th>
              <th className="py-1">Problem</th>
            </tr>
          </thead>
          <tbody>
            {failure.errors.map((e, i) => (
              <tr key={i} className="border-t border-border" data-testid="import-error">
                <td className="py-1 font-mono">{e.line}</td>
                <td className="py-1">{e.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
        </div>
      )}
    </div>
  );
}

function ImportPreview({ result }: { result: ImportResult }) {
  const questions = result.questions ?? [];
  return (
    <div className="grid gap-2" data-testid="import-preview">
      <p role="status" className="font-semibold">
        {plural(result.imported, 'new question')}, {plural(result.skipped, 'duplicate')} skipped
      </p>
      <ol className="grid gap-1 text-sm">
        {questions.slice(0, PREVIEW_ROWS).map((q, i) => (
          <li key={i} className="rounded-md border border-border px-3 py-2">
            <span className="font-medium">{q.text}</span>
            <span className="text-muted"> · {LETTERS[q.correctIndex]}: {q.choices[q.correctIndex]} · {q.points} pts · {q.timeLimitSeconds} s</span>
          </li>
        ))}
      </ol>
      {questions.length > PREVIEW_ROWS && <p className="text-sm text-muted">…and {questions.length - PREVIEW_ROWS} more.</p>}
    </div>
  );
}
