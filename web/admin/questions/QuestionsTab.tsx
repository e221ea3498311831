import { useState } from 'react';
import { FileDown, Plus, Upload } from 'lucide-react';
import { api } from '../../common/api';
import { errorToast } from '../../common/toast';
import { Button } from '../../common/ui/Button';
import { keys, useQuestions, useSessions } from '../queries';
import type { Question } from '../types';
import { ConfirmDialog } from '../ui/Dialog';
import { FormField } from '../ui/Form';
import { SimpleSelect } from '../ui/Select';
import { EmptyState, LoadError, LoadingText, TabHeader } from '../ui/TabHeader';
import { useAdminMutation } from '../useAdminMutation';
import { AssignQuestionDialog } from './AssignQuestionDialog';
import { CategoryFilterField, useCategoryFilter } from './CategoryFilter';
import { QuestionCard } from './QuestionCard';
import { QuestionFormDialog } from './QuestionFormDialog';
import { ImportQuestionsDialog } from './ImportQuestionsDialog';
import { downloadAdminFile } from './questionFiles';

/** The session filter's "All questions". */
const ALL = 'all';
type OpenDialog = { kind: 'create' } | { kind: 'import' } | { kind: 'edit' | 'assign' | 'delete'; questionId: string } | null;

/** The question bank (SPEC §2 "Questions tab"). */
export function QuestionsTab() {
  const [sessionFilter, setSessionFilter] = useState(ALL);
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const sessions = useSessions();
  const questions = useQuestions(sessionFilter === ALL ? undefined : sessionFilter);

  const loaded = questions.data ?? [];
  const categoryFilter = useCategoryFilter(loaded);
  const { shown } = categoryFilter;
  const selected: Question | undefined =
    dialog && 'questionId' in dialog ? loaded.find((q) => q.id === dialog.questionId) : undefined;
  const close = () => setDialog(null);

  // SPEC §8: deleting a question shows no error message on failure.
  const remove = useAdminMutation<string>({
    mutationFn: (id) => api.delete(`/api/admin/questions/${id}`),
    invalidate: [keys.questions, ['/api/admin/sessions']],
    success: 'Question deleted',
    error: null,
    onSuccess: close,
  });

  return (
    <section>
      <TabHeader
        title="Question Bank"
        subtitle="Create questions once and use them in any session"
        action={
          <div className="flex flex-wrap gap-2">
            {(['csv', 'json'] as const).map((format) => (
              <Button
                key={format}
                variant="outline"
                onClick={() => downloadAdminFile(`/api/admin/questions/export?format=${format}`, `marquee-questions.${format}`).catch(() => errorToast('Failed to export questions'))}
              >
                <FileDown aria-hidden />
                Export {format.toUpperCase()}
              </Button>
            ))}
            <Button variant="outline" onClick={() => setDialog({ kind: 'import' })}>
              <Upload aria-hidden />
              Import
            </Button>
            <Button onClick={() => setDialog({ kind: 'create' })}>
              <Plus aria-hidden />
              Add Question
            </Button>
          </div>
        }
      />
      <div className="mb-6 grid gap-4 sm:grid-cols-2 lg:w-2/3">
        <FormField id="questions-session-filter" label="Filter by session" className="grid gap-1.5">
          {(field) => (
            <SimpleSelect
              id={field.id}
              value={sessionFilter}
              onValueChange={(v) => {
                setSessionFilter(v);
                categoryFilter.reset();
              }}
              options={[{ value: ALL, label: 'All questions' }, ...(sessions.data ?? []).map((s) => ({ value: s.id, label: s.title }))]}
            />
          )}
        </FormField>
        <CategoryFilterField id="questions-category-filter" label="Filter by category" filter={categoryFilter} className="grid gap-1.5" />
      </div>
      {questions.isPending ? (
        <LoadingText>Loading questions...</LoadingText>
      ) : questions.isError ? (
        <LoadError error={questions.error} />
      ) : shown.length === 0 ? (
        <EmptyState>No questions found. Create your first question to get started!</EmptyState>
      ) : (
        <div className="grid gap-4">
          {shown.map((q, i) => (
            <QuestionCard
              key={q.id}
              question={q}
              number={i + 1}
              onAssign={() => setDialog({ kind: 'assign', questionId: q.id })}
              onEdit={() => setDialog({ kind: 'edit', questionId: q.id })}
              onDelete={() => setDialog({ kind: 'delete', questionId: q.id })}
            />
          ))}
        </div>
      )}

      <QuestionFormDialog
        open={dialog?.kind === 'create' || (dialog?.kind === 'edit' && !!selected)}
        question={dialog?.kind === 'edit' ? selected : undefined}
        onOpenChange={(o) => !o && close()}
      />
      <AssignQuestionDialog open={dialog?.kind === 'assign' && !!selected} question={selected} onClose={close} />
      <ImportQuestionsDialog open={dialog?.kind === 'import'} onClose={close} />
      <ConfirmDialog
        open={dialog?.kind === 'delete' && !!selected}
        onOpenChange={(o) => !o && close()}
        title="Delete Question"
        description={`Delete "${selected?.text ?? ''}"? It is also removed from every session that uses it.`}
        confirmLabel="Delete"
        pendingLabel="Deleting..."
        destructive
        pending={remove.isPending}
        onConfirm={() => selected && remove.mutate(selected.id)}
      />
    </section>
  );
}
