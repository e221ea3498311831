import type { CSSProperties } from 'react';
import { FONT_WEIGHT_VALUE, QUESTION_TEXT_REM, type ResolvedTheme } from '../common/theme';

/** The display's question text is the theme's size scaled up for the back row. */
const DISPLAY_QUESTION_SCALE = 1.5;

export function questionTextStyle(theme: ResolvedTheme, scale = 1): CSSProperties {
  return {
    fontSize: `${QUESTION_TEXT_REM[theme.questionTextSize] * DISPLAY_QUESTION_SCALE * scale}rem`,
    fontWeight: FONT_WEIGHT_VALUE[theme.questionFontWeight],
  };
}

/**
 * The display is laid out in rem and sized to the screen: 1 rem = 1/54 of the height (20 px at
 * 1080p, 13.3 px at 720p), or less on screens narrower than 16:9, so 1920×1080 and 1280×720 show
 * the same composition and the text keeps its share of the screen from the back row.
 */
export const DISPLAY_ROOT_FONT_SIZE = 'min(1.852vh, 1.042vw)';
