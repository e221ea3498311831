import type { CSSProperties } from 'react';
import { OVERLAY_OPACITY, parseTheme, resolveTheme, type ResolvedTheme } from '../theme';

/**
 * The session theme on the live screens (SPEC §3): every field, with the spec's defaults.
 * Colours and fonts travel as CSS variables, so each component just names a role
 * (--mq-primary, --mq-success…) and the display and the phones read the same theme.
 */
export function liveTheme(raw: unknown): ResolvedTheme {
  return resolveTheme(parseTheme(raw));
}

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

/** A CSS url() for a media path, quoted so odd characters cannot break out of it. */
export function cssUrl(path: string): string {
  return `url("${path.replace(/["\\\n\r]/g, (c) => encodeURIComponent(c))}")`;
}
