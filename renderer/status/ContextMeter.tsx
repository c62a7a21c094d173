import type { InstructionFile } from '../../common/contextWindow';
import { useI18n } from '../i18n/I18nProvider';
import { COMPACT_NUMBER, numberFormat } from '../i18n/numberFormat';
import { useContextStatus } from './useContextStatus';

/** Amber from this share of the threshold on: Keel will make room soon. */
const NEAR = 0.85;

/**
 * The status bar's context part: how full the model's window is (used / window, amber near the
 * point where Keel makes room), "Compact now", and which instruction files the agent is given.
 */
export function ContextMeter({ settingsKey }: { settingsKey: string }) {
  const { t, language } = useI18n();
  const { context, instructionFiles, running, compacting, note, compact } = useContextStatus(settingsKey);
  if (!context) return null;
  const compactFormat = numberFormat(language, COMPACT_NUMBER);
  const full = numberFormat(language);
  const share = Math.min(1, context.usedTokens / context.windowTokens);
  const level = context.usedTokens >= context.compactAtTokens ? 'over' : context.usedTokens >= context.compactAtTokens * NEAR ? 'near' : 'ok';
  const title = t('context.meterTitle', {
    used: full.format(context.usedTokens),
    window: full.format(context.windowTokens),
    percent: String(Math.round(share * 100)),
    threshold: full.format(context.compactAtTokens),
  });
  return (
    <>
      <span className="status-item context-meter" data-level={level} title={title} data-testid="context-meter">
        <span className="visually-hidden">{t('context.meterLabel')} </span>
        <span className="context-bar" role="meter" aria-label={title} aria-valuemin={0} aria-valuemax={context.windowTokens} aria-valuenow={context.usedTokens}>
          <span className="context-fill" style={{ width: `${Math.max(2, share * 100)}%` }} />
          <span className="context-mark" style={{ left: `${(context.compactAtTokens / context.windowTokens) * 100}%` }} />
        </span>
        <span className="context-figures">
          {t('context.meter', { used: compactFormat.format(context.usedTokens), window: compactFormat.format(context.windowTokens) })}
        </span>
        <button
          type="button"
          className="context-compact"
          onClick={() => void compact()}
          disabled={running || compacting || context.historyMessages === 0}
          title={context.historyMessages === 0 ? t('context.compactNothing') : t('context.compactTitle')}
        >
          {compacting ? t('context.compacting') : t('context.compactNow')}
        </button>
        {note ? (
          <span className={`context-note context-note-${note.kind}`} role="status" title={note.message}>
            {note.kind === 'error' ? t('context.compactFailed', { message: note.message }) : t('context.compactNothing')}
          </span>
        ) : null}
      </span>
      {instructionFiles.length > 0 ? <InstructionFiles files={instructionFiles} /> : null}
    </>
  );
}

function InstructionFiles({ files }: { files: readonly InstructionFile[] }) {
  const { t } = useI18n();
  const name = (file: InstructionFile) => file.path.split(/[\\/]/).pop() ?? file.path;
  const list = files.map(
    (file) => `${file.path}${file.scope === 'user' ? ` ${t('context.instructions.user')}` : ''}${file.truncated ? ` ${t('context.instructions.cut')}` : ''}`,
  );
  const title = `${t('context.instructionsTitle')}\n${list.join('\n')}`;
  const cut = files.some((file) => file.truncated);
  return (
    <span className="status-item context-instructions" data-cut={cut} title={title} aria-label={title} tabIndex={0} data-testid="instruction-files">
      {files.length === 1 ? t('context.instructions.one', { name: name(files[0]!) }) : t('context.instructions.many', { count: String(files.length) })}
      {cut ? ' ✂' : ''}
    </span>
  );
}
