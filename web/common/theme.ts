/**
 * The session theme (SPEC §3): every field optional, defaults filled in when drawing. Shared by the
 * admin's Theme Editor (and its live preview) and the display screen.
 */
import type { BackgroundOverlay, QuestionFontWeight, QuestionTextSize, Theme } from '../../protocol/index';

export type { BackgroundOverlay, QuestionFontWeight, QuestionTextSize, Theme };

export type ResolvedTheme = Required<Omit<Theme, 'logo' | 'headerBackgroundImage' | 'mainBackgroundImage'>> &
  Pick<Theme, 'logo' | 'headerBackgroundImage' | 'mainBackgroundImage'>;

export const DEFAULT_THEME: ResolvedTheme = {
  primaryColor: '#E74C52',
  secondaryColor: '#6366F1',
  backgroundColor: '#0A0A0A',
  textColor: '#FFFFFF',
  successColor: '#22C55E',
  timerWarningColor: '#F59E0B',
  primaryFont: 'Inter, system-ui, sans-serif',
  secondaryFont: 'Inter, system-ui, sans-serif',
  monoFont: 'ui-monospace, Menlo, monospace',
  questionTextSize: 'large',
  questionFontWeight: 'bold',
  backgroundOverlay: 'medium',
  backdropBlur: true,
};

export const QUESTION_TEXT_SIZES: QuestionTextSize[] = ['small', 'medium', 'large', 'xlarge'];
export const QUESTION_FONT_WEIGHTS: QuestionFontWeight[] = ['normal', 'medium', 'semibold', 'bold', 'black'];
export const BACKGROUND_OVERLAYS: BackgroundOverlay[] = ['none', 'light', 'medium', 'dark'];

/** Overlay opacity (SPEC §9): light 10%, medium 30%, dark 50%. */
export const OVERLAY_OPACITY: Record<BackgroundOverlay, number> = { none: 0, light: 0.1, medium: 0.3, dark: 0.5 };

export const QUESTION_TEXT_REM: Record<QuestionTextSize, number> = { small: 1.5, medium: 2, large: 2.5, xlarge: 3.25 };
export const FONT_WEIGHT_VALUE: Record<QuestionFontWeight, number> = {
  normal: 400,
  medium: 500,
  semibold: 600,
  bold: 700,
  black: 900,
};

/** A theme arrives as an object or a JSON string; anything unparseable is the empty theme. */
export function parseTheme(raw: unknown): Theme {
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) return raw as Theme;
  if (typeof raw === 'string' && raw.trim()) {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Theme;
    } catch {
      // fall through to the empty theme
    }
  }
  return {};
}

export function resolveTheme(theme: Theme): ResolvedTheme {
  const resolved: ResolvedTheme = { ...DEFAULT_THEME };
  for (const [key, value] of Object.entries(theme)) {
    if (value !== undefined && value !== null && value !== '') (resolved as unknown as Record<string, unknown>)[key] = value;
  }
  return resolved;
}
