import type { CSSProperties } from 'react';
import { FONT_WEIGHT_VALUE, OVERLAY_OPACITY, QUESTION_TEXT_REM, parseTheme, resolveTheme, type ResolvedTheme } from '../common/theme';

/**
 * The session theme on the big screen (SPEC §3): every field, with the spec's defaults. Colours
 * and fonts travel as CSS variables so each component just refers to its role (--mq-primary…).
 */
export function displayTheme(raw: unknown): ResolvedTheme {
  return resolveTheme(parseTheme(raw));
}

/** The display's question text is the theme size scaled up for the back row. */
const DISPLAY_QUESTION_SCALE = 1.5;
const PANEL_BLUR = 'blur(14px)';

export function themeVariables(theme: ResolvedTheme): CSSProperties {
  return {
    '--mq-primary': theme.primaryColor,
    '--mq-secondary': theme.secondaryColor,
    '--mq-bg': theme.backgroundColor,
    '--mq-text': theme.textColor,
    '--mq-success': theme.successColor,
    '--mq-warning': theme.timerWarningColor,
    '--mq-font-primary': theme.primaryFont,
    '--mq-font-secondary': theme.secondaryFont,
    '--mq-font-mono': theme.monoFont,
    '--mq-blur': theme.backdropBlur ? PANEL_BLUR : 'none',
    '--mq-overlay': String(OVERLAY_OPACITY[theme.backgroundOverlay]),
  } as CSSProperties;
}

export function questionTextStyle(theme: ResolvedTheme): CSSProperties {
  return {
    fontSize: `${QUESTION_TEXT_REM[theme.questionTextSize] * DISPLAY_QUESTION_SCALE}rem`,
    fontWeight: FONT_WEIGHT_VALUE[theme.questionFontWeight],
  };
}

/** A CSS url() for a media path or address, quoted so odd characters cannot break out. */
export function cssUrl(path: string): string {
  return `url("${path.replace(/["\\\n\r]/g, (c) => encodeURIComponent(c))}")`;
}

/**
 * The display is laid out in rem and sized to the screen: 1 rem = 1/54 of the height (20 px at
 * 1080p, 13.3 px at 720p), or less on screens narrower than 16:9, so 1920×1080 and 1280×720 show
 * the same composition and the text keeps its share of the screen from the back row.
 */
export const DISPLAY_ROOT_FONT_SIZE = 'min(1.852vh, 1.042vw)';
