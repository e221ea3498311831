import { ELEGANT_GOLD_THEME } from '../../protocol/api';
import { DEFAULT_THEME, type Theme } from './theme';

export interface ThemePreset {
  name: string;
  description: string;
  theme: Theme;
}

/** The five presets of SPEC §3. Images are left out: loading a preset keeps the session's images. */
export const THEME_PRESETS: ThemePreset[] = [
  {
    name: 'Default Cinema',
    description: 'Classic cinema red in a dark theatre',
    theme: { ...DEFAULT_THEME },
  },
  {
    name: 'Modern Tech',
    description: 'Cool blue with Roboto fonts',
    theme: {
      primaryColor: '#3B82F6',
      secondaryColor: '#06B6D4',
      backgroundColor: '#0F172A',
      textColor: '#F1F5F9',
      successColor: '#10B981',
      timerWarningColor: '#F97316',
      primaryFont: 'Roboto, sans-serif',
      secondaryFont: 'Roboto, sans-serif',
      monoFont: "'Roboto Mono', monospace",
      questionTextSize: 'large',
      questionFontWeight: 'semibold',
      backgroundOverlay: 'medium',
      backdropBlur: true,
    },
  },
  {
    name: 'Retro Arcade',
    description: 'Neon magenta and cyan, loud and big',
    theme: {
      primaryColor: '#FF00FF',
      secondaryColor: '#00FFFF',
      backgroundColor: '#000000',
      textColor: '#FFFFFF',
      successColor: '#39FF14',
      timerWarningColor: '#FFFF00',
      primaryFont: "'Arial Black', Impact, sans-serif",
      secondaryFont: "'Arial Black', Impact, sans-serif",
      monoFont: "'Courier New', monospace",
      questionTextSize: 'xlarge',
      questionFontWeight: 'black',
      backgroundOverlay: 'dark',
      backdropBlur: false,
    },
  },
  {
    name: 'Elegant Gold',
    description: 'Gold on black with Georgia',
    theme: ELEGANT_GOLD_THEME,
  },
  {
    name: 'Ocean Breeze',
    description: 'Calm blue and teal',
    theme: {
      primaryColor: '#0EA5E9',
      secondaryColor: '#14B8A6',
      backgroundColor: '#082F49',
      textColor: '#F0F9FF',
      successColor: '#2DD4BF',
      timerWarningColor: '#FBBF24',
      primaryFont: "'Trebuchet MS', sans-serif",
      secondaryFont: "'Trebuchet MS', sans-serif",
      monoFont: 'ui-monospace, Menlo, monospace',
      questionTextSize: 'large',
      questionFontWeight: 'bold',
      backgroundOverlay: 'light',
      backdropBlur: true,
    },
  },
];
