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
    '--mq-on-primary': readableTextOn(theme.primaryColor),
    '--mq-on-success': readableTextOn(theme.successColor),
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

/**
 * The text colour for large bold labels on `background`: white, the theatre look, while it keeps
 * the 3:1 contrast WCAG asks of large text; black on light fills such as neon green or gold.
 * Colours that are not #rgb/#rrggbb get white.
 */
export function readableTextOn(background: string): '#000000' | '#FFFFFF' {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(background.trim())?.[1];
  if (!hex) return '#FFFFFF';
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = parseInt(full.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const contrastWithWhite = 1.05 / (luminance + 0.05);
  return contrastWithWhite >= 3 ? '#FFFFFF' : '#000000';
}
