import { Input, Label } from '../../../common/ui/Field';
import {
  BACKGROUND_OVERLAYS,
  QUESTION_FONT_WEIGHTS,
  QUESTION_TEXT_SIZES,
  type ResolvedTheme,
  type Theme,
} from '../../../common/theme';
import { FormField } from '../../ui/Form';
import { SimpleSelect, type SelectOption } from '../../ui/Select';
import { SwitchField } from '../../ui/Toggles';

type ColorKey = 'primaryColor' | 'secondaryColor' | 'backgroundColor' | 'textColor' | 'successColor' | 'timerWarningColor';
type FontKey = 'primaryFont' | 'secondaryFont' | 'monoFont';

const COLORS: Array<[ColorKey, string]> = [
  ['primaryColor', 'Primary Color'],
  ['secondaryColor', 'Secondary Color'],
  ['backgroundColor', 'Background Color'],
  ['textColor', 'Text Color'],
  ['successColor', 'Success Color'],
  ['timerWarningColor', 'Timer Warning Color'],
];

const FONTS: Array<[FontKey, string]> = [
  ['primaryFont', 'Primary Font'],
  ['secondaryFont', 'Secondary Font'],
  ['monoFont', 'Monospace Font'],
];

const FONT_SUGGESTIONS = [
  'Inter, system-ui, sans-serif',
  'Roboto, sans-serif',
  "'Roboto Mono', monospace",
  "'Arial Black', Impact, sans-serif",
  'Georgia, serif',
  "'Trebuchet MS', sans-serif",
  "'Courier New', monospace",
  'ui-monospace, Menlo, monospace',
];

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The theme's three choices from fixed lists, each a select beside its label. */
const CHOICES: Array<{ key: 'questionTextSize' | 'questionFontWeight' | 'backgroundOverlay'; label: string; options: SelectOption[] }> = [
  {
    key: 'questionTextSize',
    label: 'Question Text Size',
    options: QUESTION_TEXT_SIZES.map((v) => ({ value: v, label: v === 'xlarge' ? 'Extra Large' : capitalise(v) })),
  },
  { key: 'questionFontWeight', label: 'Question Font Weight', options: QUESTION_FONT_WEIGHTS.map((v) => ({ value: v, label: capitalise(v) })) },
  {
    key: 'backgroundOverlay',
    label: 'Background Overlay',
    options: BACKGROUND_OVERLAYS.map((v) => ({ value: v, label: { none: 'None', light: 'Light (10%)', medium: 'Medium (30%)', dark: 'Dark (50%)' }[v] })),
  },
];
const HEX = /^#[0-9a-f]{6}$/i;

interface Props {
  theme: Theme;
  resolved: ResolvedTheme;
  onChange: (patch: Partial<Theme>) => void;
}

export function ThemeFields({ theme, resolved, onChange }: Props) {
  return (
    <div className="grid gap-6">
      <fieldset className="grid gap-3">
        <legend className="mb-2 text-sm font-semibold uppercase tracking-wide text-muted">Colors</legend>
        <div className="grid gap-3 sm:grid-cols-2">
          {COLORS.map(([key, label]) => (
            <div key={key} className="grid gap-1.5">
              <Label htmlFor={`theme-${key}`}>{label}</Label>
              <div className="flex gap-2">
                <input
                  type="color"
                  aria-label={`${label} picker`}
                  className="h-10 w-12 shrink-0 cursor-pointer rounded-md border border-border bg-surface-2 p-1"
                  value={HEX.test(resolved[key]) ? resolved[key] : '#000000'}
                  onChange={(e) => onChange({ [key]: e.target.value.toUpperCase() })}
                />
                <Input
                  id={`theme-${key}`}
                  value={theme[key] ?? ''}
                  placeholder={resolved[key]}
                  onChange={(e) => onChange({ [key]: e.target.value || undefined })}
                />
              </div>
            </div>
          ))}
        </div>
      </fieldset>

      <fieldset className="grid gap-3">
        <legend className="mb-2 text-sm font-semibold uppercase tracking-wide text-muted">Fonts</legend>
        <datalist id="theme-font-suggestions">
          {FONT_SUGGESTIONS.map((f) => (
            <option key={f} value={f} />
          ))}
        </datalist>
        {FONTS.map(([key, label]) => (
          <div key={key} className="grid gap-1.5">
            <Label htmlFor={`theme-${key}`}>{label}</Label>
            <Input
              id={`theme-${key}`}
              list="theme-font-suggestions"
              value={theme[key] ?? ''}
              placeholder={resolved[key]}
              onChange={(e) => onChange({ [key]: e.target.value || undefined })}
            />
          </div>
        ))}
      </fieldset>

      <fieldset className="grid gap-3">
        <legend className="mb-2 text-sm font-semibold uppercase tracking-wide text-muted">Question Text and Background</legend>
        <div className="grid gap-3">
          {CHOICES.map(({ key, label, options }) => (
            <FormField key={key} id={`theme-${key}`} label={label} className="grid grid-cols-[minmax(0,1fr)_11rem] items-center gap-3">
              {(field) => <SimpleSelect id={field.id} value={resolved[key]} onValueChange={(v) => onChange({ [key]: v })} options={options} />}
            </FormField>
          ))}
        </div>
        <SwitchField
          id="theme-backdropBlur"
          label="Backdrop Blur"
          description="Blur the background image behind panels."
          checked={resolved.backdropBlur}
          onCheckedChange={(v) => onChange({ backdropBlur: v })}
        />
      </fieldset>
    </div>
  );
}
