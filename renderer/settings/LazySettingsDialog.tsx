import { useId } from 'react';
import { useI18n } from '../i18n/I18nProvider';
import { Dialog } from '../ui/Dialog';
import { CloseIcon } from '../ui/icons';
import { useLazyPart } from '../ui/lazyPart';
import { PartFallback } from '../ui/PartFallback';
import type { SettingsDialogProps } from './SettingsDialog';
import { settingsPart } from './settingsPart';

/**
 * The settings dialog from its own chunk (fetched when the window is idle, so usually there). A
 * dialog opened before it arrives opens whole, a moment later, rather than as an empty frame that
 * fills in under the reader; a chunk that cannot be loaded opens the frame with the error.
 */
export function LazySettingsDialog(props: SettingsDialogProps) {
  const { t } = useI18n();
  const id = useId();
  const state = useLazyPart(settingsPart);
  if (state.status === 'ready') return <state.module.SettingsDialog {...props} />;
  if (state.status !== 'failed') return null;
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
