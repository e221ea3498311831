import { useMemo } from 'react';
import { api } from '../../../common/api';
import { parseTheme, resolveTheme, type Theme } from '../../../common/theme';
import { THEME_PRESETS, type ThemePreset } from '../../../common/themePresets';
import { toast } from '../../../common/toast';
import { Button } from '../../../common/ui/Button';
import { keys } from '../../queries';
import type { Session } from '../../types';
import { AppDialog } from '../../ui/Dialog';
import { useOpenedState } from '../../ui/useOpenedState';
import { useAdminMutation } from '../../useAdminMutation';
import { ThemeFields } from './ThemeFields';
import { ThemeImageField } from './ThemeImageField';
import { ThemePreview } from './ThemePreview';

interface Props {
  open: boolean;
  session: Session;
  onClose: () => void;
}

/** Edits the display theme (SPEC §2, §3) with a live preview; nothing is stored until Save Theme. */
export function ThemeEditorDialog({ open, session, onClose }: Props) {
  const [draft, setDraft] = useOpenedState<Theme>(open, () => parseTheme(session.theme), session.id);
  const resolved = useMemo(() => resolveTheme(draft), [draft]);
  const change = (patch: Partial<Theme>) => setDraft((t) => ({ ...t, ...patch }));

  const save = useAdminMutation<Theme>({
    mutationFn: (theme) => api.put(`/api/admin/sessions/${session.id}`, { theme }),
    invalidate: [keys.sessions],
    success: 'Theme updated successfully',
    error: 'Failed to update theme',
    onSuccess: onClose,
  });

  function loadPreset(preset: ThemePreset) {
    // Images belong to the session, not the preset: keep them.
    setDraft((t) => ({
      ...preset.theme,
      logo: t.logo,
      headerBackgroundImage: t.headerBackgroundImage,
      mainBackgroundImage: t.mainBackgroundImage,
    }));
    toast({ title: 'Preset loaded', description: `${preset.name} loaded. Click Save Theme to apply it.` });
  }

  return (
    <AppDialog
      open={open}
      onOpenChange={(o) => !o && onClose()}
      title="Theme Editor"
      description={`Customise how ${session.title} looks on the display.`}
      size="xl"
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button disabled={save.isPending} onClick={() => save.mutate(draft)}>
            {save.isPending ? 'Saving...' : 'Save Theme'}
          </Button>
        </>
      }
    >
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <div className="grid content-start gap-6">
          <section aria-labelledby="theme-presets-heading" className="grid gap-2">
            <h3 id="theme-presets-heading" className="text-sm font-semibold uppercase tracking-wide text-muted">
              Presets
            </h3>
            <div className="grid grid-cols-2 gap-2 sm:grid-cols-3">
              {THEME_PRESETS.map((preset) => (
                <button
                  key={preset.name}
                  type="button"
                  onClick={() => loadPreset(preset)}
                  className="grid gap-1.5 rounded-lg border border-border bg-surface-2 p-2 text-left hover:border-primary"
                  title={preset.description}
                >
                  <span className="flex gap-1" aria-hidden>
                    {[preset.theme.primaryColor, preset.theme.secondaryColor, preset.theme.backgroundColor].map((c, i) => (
                      <span key={i} className="size-4 rounded-full border border-white/20" style={{ backgroundColor: c }} />
                    ))}
                  </span>
                  <span className="text-xs font-medium">{preset.name}</span>
                </button>
              ))}
            </div>
          </section>
          <ThemeFields theme={draft} resolved={resolved} onChange={change} />
          <section aria-labelledby="theme-images-heading" className="grid gap-2">
            <h3 id="theme-images-heading" className="text-sm font-semibold uppercase tracking-wide text-muted">
              Images
            </h3>
            <ThemeImageField id="logo" label="Logo" value={draft.logo ?? undefined} onChange={(v) => change({ logo: v })} />
            <ThemeImageField
              id="header-background"
              label="Header Background"
              value={draft.headerBackgroundImage ?? undefined}
              onChange={(v) => change({ headerBackgroundImage: v })}
            />
            <ThemeImageField
              id="main-background"
              label="Main Background"
              value={draft.mainBackgroundImage ?? undefined}
              onChange={(v) => change({ mainBackgroundImage: v })}
            />
          </section>
        </div>
        <div className="lg:sticky lg:top-0 lg:self-start">
          <h3 className="mb-2 text-sm font-semibold uppercase tracking-wide text-muted">Live Preview</h3>
          <ThemePreview theme={resolved} title={session.title} />
        </div>
      </div>
    </AppDialog>
  );
}
