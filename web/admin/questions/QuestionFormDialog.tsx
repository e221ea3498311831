import { api } from '../../common/api';
import { toast } from '../../common/toast';
import { Input, Textarea } from '../../common/ui/Field';
import { keys, useAdminMediaList } from '../queries';
import type { Media, Question } from '../types';
import { FormDialog, FormField } from '../ui/Form';
import { SimpleSelect } from '../ui/Select';
import { useOpenedState } from '../ui/useOpenedState';
import { useAdminMutation } from '../useAdminMutation';
import { CategoryInput } from './CategoryInput';
import {
  EMPTY_QUESTION_FORM,
  MIN_POINTS,
  MIN_TIME_LIMIT_SECONDS,
  formFromQuestion,
  questionBody,
  type QuestionFormValues,
} from './questionForm';

const NO_MEDIA = 'none';
export const LETTERS = ['A', 'B', 'C', 'D'];

export function mediaLabel(media: Media): string {
  const name = media.filePath.split('/').filter(Boolean).pop() ?? media.filePath;
  return `${name} (${media.fileType})`;
}

interface Props {
  open: boolean;
  /** Present: Edit Question; absent: Add Question. */
  question?: Question;
  onOpenChange: (open: boolean) => void;
}

export function QuestionFormDialog({ open, question, onOpenChange }: Props) {
  const [values, setValues] = useOpenedState<QuestionFormValues>(open, () => (question ? formFromQuestion(question) : EMPTY_QUESTION_FORM), question?.id);
  const media = useAdminMediaList();
  const editing = !!question;

  const close = () => onOpenChange(false);
  type Body = NonNullable<ReturnType<typeof questionBody>>;
  // SPEC §8: failures creating or updating a question show no error message.
  const create = useAdminMutation<Body>({
    mutationFn: (body) => api.post('/api/admin/questions', body),
    invalidate: [keys.questions],
    success: 'Question created',
    error: null,
    onSuccess: close,
  });
  const update = useAdminMutation<Body>({
    mutationFn: (body) => api.put(`/api/admin/questions/${question!.id}`, body),
    invalidate: [keys.questions, ['/api/admin/sessions']],
    success: 'Question updated',
    error: null,
    onSuccess: close,
  });
  const pending = create.isPending || update.isPending;
  const set = <K extends keyof QuestionFormValues>(key: K, value: QuestionFormValues[K]) =>
    setValues((v) => ({ ...v, [key]: value }));

  function onSubmit() {
    const body = questionBody(values);
    if (!body) {
      toast({ title: 'Validation Error', description: 'Please fill in all fields', variant: 'destructive' });
      return;
    }
    (editing ? update : create).mutate(body);
  }

  const mediaOptions = [
    { value: NO_MEDIA, label: 'No media' },
    ...(media.data ?? []).map((m) => ({ value: m.id, label: mediaLabel(m) })),
  ];

  return (
    <FormDialog
      open={open}
      onClose={close}
      title={editing ? 'Edit Question' : 'Add Question'}
      description="Four choices; mark the correct one."
      size="lg"
      formId="question-form"
      submitLabel={editing ? 'Update Question' : 'Create Question'}
      pendingLabel={editing ? 'Updating...' : 'Creating...'}
      pending={pending}
      onSubmit={onSubmit}
      // Blank fields get the spec's 'Please fill in all fields' toast, not browser bubbles.
      noValidate
    >
      <FormField id="question-text" label="Question Text">
        {(field) => <Textarea {...field} rows={3} placeholder="Enter the question" value={values.text} onChange={(e) => set('text', e.target.value)} />}
      </FormField>
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">Choices (select the correct answer)</legend>
        {values.choices.map((choice, i) => (
          <div key={i} className="flex items-center gap-2">
            <input
              type="radio"
              name="correct-choice"
              id={`question-correct-${i}`}
              aria-label={`Choice ${LETTERS[i]} is correct`}
              className="size-4 accent-[var(--color-success)]"
              checked={values.correctIndex === i}
              onChange={() => set('correctIndex', i)}
            />
            <span className="w-5 text-sm font-bold" aria-hidden>
              {LETTERS[i]}
            </span>
            <Input
              id={`question-choice-${i}`}
              aria-label={`Choice ${LETTERS[i]}`}
              placeholder={`Choice ${LETTERS[i]}`}
              value={choice}
              onChange={(e) => {
                const next = [...values.choices] as QuestionFormValues['choices'];
                next[i] = e.target.value;
                set('choices', next);
              }}
            />
          </div>
        ))}
      </fieldset>
      <CategoryInput value={values.categories} onChange={(c) => set('categories', c)} />
      <FormField id="question-media" label="Media (optional)">
        {(field) => (
          <SimpleSelect id={field.id} value={values.mediaId ?? NO_MEDIA} onValueChange={(v) => set('mediaId', v === NO_MEDIA ? null : v)} options={mediaOptions} />
        )}
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id="question-points" label="Points">
          {(field) => <Input {...field} type="number" min={MIN_POINTS} value={values.points} onChange={(e) => set('points', e.target.value)} />}
        </FormField>
        <FormField id="question-time-limit" label="Time Limit (seconds)">
          {(field) => (
            <Input {...field} type="number" min={MIN_TIME_LIMIT_SECONDS} value={values.timeLimitSeconds} onChange={(e) => set('timeLimitSeconds', e.target.value)} />
          )}
        </FormField>
      </div>
    </FormDialog>
  );
}
