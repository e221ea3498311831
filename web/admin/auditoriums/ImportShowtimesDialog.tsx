import { plural } from '../../common/format';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from '../../common/toast';
import { Button } from '../../common/ui/Button';
import { HelpText } from '../../common/ui/Field';
import { ImportErrors } from '../questions/ImportQuestionsDialog';
import { importFailure, postAdminFile, type ImportFailure } from '../questions/questionFiles';
import { keys } from '../queries';
import type { Auditorium } from '../types';
import { AppDialog } from '../ui/Dialog';
import { FileField } from '../ui/Form';
import { useOpenedState } from '../ui/useOpenedState';

type Step = { kind: 'choose' } | { kind: 'importing'; file: File } | { kind: 'invalid'; failure: ImportFailure };

/** Showtimes from a CSV file `title,starts_at` (DESIGN §13): all or nothing, every problem with its line. */
export function ImportShowtimesDialog({ open, auditorium, onClose }: { open: boolean; auditorium: Auditorium; onClose: () => void }) {
  const [step, setStep] = useOpenedState<Step>(open, () => ({ kind: 'choose' }));
  const queryClient = useQueryClient();

  async function upload(file: File) {
    setStep({ kind: 'importing', file });
    try {
      const done = await postAdminFile<{ imported: number; skipped: number }>(`/api/admin/auditoriums/${auditorium.id}/showtimes/import`, file);
      await queryClient.invalidateQueries({ queryKey: keys.showtimes(auditorium.id) });
      toast({ title: `${plural(done.imported, 'showtime')} imported`, description: done.skipped ? `${done.skipped} already there, skipped` : undefined });
      onClose();
    } catch (error) {
      setStep({ kind: 'invalid', failure: importFailure(error) });
    }
  }

  return (
    <AppDialog
      open={open}
      onOpenChange={(o) => !o && onClose()}
      size="xl"
      title="Import Showtimes"
      description={`A CSV file (comma-separated, UTF-8) of the films showing in ${auditorium.name}.`}
      footer={
        <Button variant="outline" onClick={onClose}>
          Close
        </Button>
      }
    >
      <div className="grid gap-4">
        <FileField id="showtime-file" label="Showtime file" accept=".csv,text/csv" onFile={(file) => void upload(file)} clearAfterPick />
        <HelpText>
          Columns: title, starts_at. starts_at carries its time zone, e.g. 2026-11-23T19:30+01:00 or 2026-11-23T18:30Z. Showtimes already
          there (same film, same time) are skipped; if any row is wrong or overlaps another showtime, nothing is imported.
        </HelpText>
        {step.kind === 'importing' && <p role="status">Importing {step.file.name}...</p>}
        {step.kind === 'invalid' && <ImportErrors failure={step.failure} />}
      </div>
    </AppDialog>
  );
}
