import type { ComponentProps } from 'react';
import { useI18n } from '../i18n/I18nProvider';
import { useLazyPart } from '../ui/lazyPart';
import { PartFallback } from '../ui/PartFallback';
import type { ChangesPanel } from './ChangesPanel';
import { CHANGES_PANEL_ID } from './changesPanelId';
import { changesPart } from './changesPart';

/** The Changes panel from its own chunk; until it is there, its place over the chat with a placeholder or the error. */
export function LazyChangesPanel(props: ComponentProps<typeof ChangesPanel>) {
  const { t } = useI18n();
  const state = useLazyPart(changesPart);
  if (state.status === 'ready') return <state.module.ChangesPanel {...props} />;
  return (
    <section id={CHANGES_PANEL_ID} className="changes-panel" aria-label={t('changes.title')}>
      <PartFallback part="changes" state={state} className="changes-fallback" />
    </section>
  );
}
