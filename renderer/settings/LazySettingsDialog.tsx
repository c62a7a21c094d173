import { useId } from 'react';
import { useI18n } from '../i18n/I18nProvider';
import { Dialog } from '../ui/Dialog';
import { CloseIcon } from '../ui/icons';
import { useLazyPart } from '../ui/lazyPart';
import { PartFallback } from '../ui/PartFallback';
import type { SettingsDialogProps } from './SettingsDialog';
import { settingsPart } from './settingsPart';

/**
 * The settings dialog from its own chunk. Until the chunk is there (it is fetched when the window
 * is idle, so this is rare) the same dialog frame stands open, with a placeholder or the error.
 */
export function LazySettingsDialog(props: SettingsDialogProps) {
  const { t } = useI18n();
  const id = useId();
  const state = useLazyPart(settingsPart);
  if (state.status === 'ready') return <state.module.SettingsDialog {...props} />;
  return (
    <Dialog
      labelledBy={`${id}-title`}
      onClose={props.onClose}
      className="dialog-settings"
      {...(props.fallbackFocus ? { fallbackFocus: props.fallbackFocus } : {})}
    >
      <div className="dialog-head">
        <h2 id={`${id}-title`} className="dialog-title">
          {t('settings.title')}
        </h2>
        <button type="button" className="icon-button" aria-label={t('common.close')} title={t('common.close')} onClick={props.onClose}>
          <CloseIcon />
        </button>
      </div>
      <div className="dialog-body">
        <PartFallback part="settings" state={state} className="settings-fallback" />
      </div>
    </Dialog>
  );
}
