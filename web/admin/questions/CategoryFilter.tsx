import { useState } from 'react';
import { FormField } from '../ui/Form';
import { SimpleSelect, type SelectOption } from '../ui/Select';

const ALL_CATEGORIES = 'all';

export interface CategoryFilter<Q> {
  category: string;
  /** Back to every category (a new list may not have the chosen one). */
  reset: () => void;
  setCategory: (category: string) => void;
  /** 'All categories', then every category the questions use, sorted. */
  options: SelectOption[];
  /** The questions of the chosen category, or all of them. */
  shown: Q[];
}

/** Narrows a list of questions to one of the categories they use (the bank, Add Questions). */
export function useCategoryFilter<Q extends { categories: string[] }>(questions: Q[]): CategoryFilter<Q> {
  const [category, setCategory] = useState(ALL_CATEGORIES);
  const categories = [...new Set(questions.flatMap((q) => q.categories))].sort();
  return {
    category,
    reset: () => setCategory(ALL_CATEGORIES),
    setCategory,
    options: [{ value: ALL_CATEGORIES, label: 'All categories' }, ...categories.map((c) => ({ value: c, label: c }))],
    shown: category === ALL_CATEGORIES ? questions : questions.filter((q) => q.categories.includes(category)),
  };
}

export function CategoryFilterField<Q>({ id, label, filter, className }: { id: string; label: string; filter: CategoryFilter<Q>; className: string }) {
  return (
    <FormField id={id} label={label} className={className}>
      {(field) => <SimpleSelect id={field.id} value={filter.category} onValueChange={filter.setCategory} options={filter.options} />}
    </FormField>
  );
}
