import { useState } from 'react';
import { X } from 'lucide-react';
import { Button } from '../../common/ui/Button';
import { Input, Label } from '../../common/ui/Field';
import { addCategory } from './questionForm';

/** Categories: Enter or Add adds one, clicking a badge removes it (SPEC §2). */
export function CategoryInput({ value, onChange }: { value: string[]; onChange: (next: string[]) => void }) {
  const [draft, setDraft] = useState('');
  const add = () => {
    onChange(addCategory(value, draft));
    setDraft('');
  };
  return (
    <div className="grid gap-2">
      <Label htmlFor="question-category">Categories (optional)</Label>
      <div className="flex gap-2">
        <Input
          id="question-category"
          placeholder="e.g. Classics"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              add();
            }
          }}
        />
        <Button variant="secondary" onClick={add}>
          Add
        </Button>
      </div>
      {value.length > 0 && (
        <ul className="flex flex-wrap gap-1.5" aria-label="Categories">
          {value.map((category) => (
            <li key={category}>
              <button
                type="button"
                onClick={() => onChange(value.filter((c) => c !== category))}
                aria-label={`Remove category ${category}`}
                className="inline-flex items-center gap-1 rounded-full border border-border bg-surface-2 px-2 py-0.5 text-xs font-semibold hover:border-primary"
              >
                {category}
                <X className="size-3" aria-hidden />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
