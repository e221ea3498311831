import { Clapperboard, Timer } from 'lucide-react';
import { FONT_WEIGHT_VALUE, OVERLAY_OPACITY, QUESTION_TEXT_REM, type ResolvedTheme } from '../../../common/theme';

const CHOICES = ['Casablanca', 'Citizen Kane', 'Vertigo', 'Metropolis'];

/**
 * A scaled-down display screen drawn with the editor's current values, so the operator sees
 * the theme before saving it. Not the real display component: that one needs a live session.
 */
export function ThemePreview({ theme, title }: { theme: ResolvedTheme; title: string }) {
  const panel = theme.backdropBlur ? 'backdrop-blur-md' : '';
  return (
    <figure
      aria-label="Theme preview"
      className="relative overflow-hidden rounded-lg border border-border"
      style={{
        backgroundColor: theme.backgroundColor,
        color: theme.textColor,
        fontFamily: theme.secondaryFont,
        backgroundImage: theme.mainBackgroundImage ? `url("${theme.mainBackgroundImage}")` : undefined,
        backgroundSize: 'cover',
        backgroundPosition: 'center',
      }}
    >
      <div
        className="absolute inset-0"
        style={{ backgroundColor: `rgba(0,0,0,${OVERLAY_OPACITY[theme.backgroundOverlay]})` }}
        aria-hidden
      />
      <div className="relative flex aspect-video flex-col text-[0.5rem]">
        <header
          className={`flex items-center justify-between px-3 py-2 ${panel}`}
          style={{
            backgroundColor: 'rgba(0,0,0,0.35)',
            backgroundImage: theme.headerBackgroundImage ? `url("${theme.headerBackgroundImage}")` : undefined,
            backgroundSize: 'cover',
          }}
        >
          <div className="flex items-center gap-2">
            {theme.logo ? (
              <img src={theme.logo} alt="" className="h-5 w-auto" />
            ) : (
              <Clapperboard className="size-4" style={{ color: theme.primaryColor }} aria-hidden />
            )}
            <div>
              <p className="text-[0.65rem] font-bold" style={{ fontFamily: theme.primaryFont }}>
                {title}
              </p>
              <p style={{ color: theme.secondaryColor }}>Live Trivia</p>
            </div>
          </div>
          <span
            className="flex items-center gap-1 rounded px-1.5 py-0.5 font-bold"
            style={{ color: theme.timerWarningColor, fontFamily: theme.monoFont }}
          >
            <Timer className="size-3" aria-hidden />
            0:08
          </span>
        </header>
        <div className="flex flex-1 flex-col items-center justify-center gap-2 px-4">
          <p
            className="text-center leading-tight"
            style={{
              fontFamily: theme.primaryFont,
              fontWeight: FONT_WEIGHT_VALUE[theme.questionFontWeight],
              fontSize: `${QUESTION_TEXT_REM[theme.questionTextSize] * 0.32}rem`,
            }}
          >
            Which film opens with the word “Rosebud”?
          </p>
          <div className="grid w-full grid-cols-2 gap-1.5">
            {CHOICES.map((choice, i) => (
              <div
                key={choice}
                className={`flex items-center gap-1.5 rounded px-2 py-1 ${panel}`}
                style={{
                  // The revealed answer: a success-tinted panel, so the theme's text colour stays readable.
                  backgroundColor: i === 1 ? `color-mix(in srgb, ${theme.successColor} 30%, transparent)` : 'rgba(255,255,255,0.08)',
                  border: `1px solid ${i === 1 ? theme.successColor : theme.primaryColor}`,
                  opacity: i === 1 ? 1 : 0.6,
                }}
              >
                <span
                  className="flex size-3.5 items-center justify-center rounded-full font-bold"
                  style={{ backgroundColor: theme.primaryColor }}
                >
                  {String.fromCharCode(65 + i)}
                </span>
                {choice}
              </div>
            ))}
          </div>
        </div>
        <footer className={`flex items-center gap-3 px-3 py-1.5 ${panel}`} style={{ backgroundColor: 'rgba(0,0,0,0.35)' }}>
          <span className="font-bold" style={{ color: theme.primaryColor }}>
            Top Players
          </span>
          <span>1. Alex 120</span>
          <span>2. Sam 95</span>
          <span>3. Kim 80</span>
        </footer>
      </div>
    </figure>
  );
}
