import { memo, useState } from 'react';
import { isHelperEnded } from '../../common/helperStates';
import type { HelperView } from '../helpers/helperState';
import type { HelperStore } from '../helpers/helperStore';
import { liveStateText, mergeText, reasonText } from '../helpers/helperWords';
import { useI18n } from '../i18n/I18nProvider';
import { Spinner, StopIcon } from '../ui/icons';
import { HelperKept } from './HelperKept';
import { HelperPlan } from './HelperPlan';

interface Props {
  view: HelperView;
  store: HelperStore;
  hintId: string;
}

/**
 * Under a step a helper owns: who owns it, what it does now, its own plan, and Stop for that
 * helper alone; once it ended, why, its answer (folded), and what became of its changes.
 */
export const HelperPanel = memo(function HelperPanel({ view, store, hintId }: Props) {
  const { t } = useI18n();
  const { info, live } = view;
  const [stopping, setStopping] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const owner = info.id;
  const ended = isHelperEnded(info.state);
  const reason = ended ? reasonText(info, t) : null;
  const merged = ended ? mergeText(info, t) : null;

  const stop = async () => {
    setStopping(true);
    setProblem(null);
    const result = await store.stop(owner);
    if (!result.ok) {
      setStopping(false);
      setProblem(result.error.message);
    }
  };

  return (
    <section className={`helper-panel is-${live.state}`} aria-label={t('helpers.section', { owner })} data-helper-id={owner} data-helper-state={live.state}>
      <header className="helper-head">
        <span className="owner-chip" title={t('helpers.ownerTitle')}>
          {owner}
        </span>
        <span className="helper-state" role="status">
          {ended ? null : <Spinner />}
          {liveStateText(live, t)}
        </span>
        {ended ? null : (
          <button
            type="button"
            className="button button-small helper-stop"
            aria-label={t('helpers.stopLabel', { owner })}
            title={t('helpers.stopTitle')}
            disabled={stopping}
            onClick={() => void stop()}
          >
            <StopIcon />
            {t('helpers.stop')}
          </button>
        )}
      </header>
      {problem ? (
        <p role="alert" className="helper-problem">
          {problem}
        </p>
      ) : null}
      {reason ? <p className="helper-reason">{reason}</p> : null}
      <HelperPlan info={info} store={store} editable={!ended} hintId={hintId} />
      {ended && info.answer ? (
        <details className="helper-answer">
          <summary>{t('helpers.answer')}</summary>
          <p className="helper-answer-text">{info.answer}</p>
        </details>
      ) : null}
      {merged ? <p className="helper-merge">{merged}</p> : null}
      {info.worktreeKept ? <HelperKept info={info} store={store} /> : null}
    </section>
  );
});
