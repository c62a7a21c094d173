import { PLAN_PROBLEM_CODES } from '../../common/plan/validate';
import type { MessageKey } from '../i18n/messages';
import { useI18n, type Translate } from '../i18n/I18nProvider';
import type { BoardProblem } from './proposals';

/** A refusal in the person's words: the validator's code translated, else main's own message. */
export function problemText(problem: BoardProblem, t: Translate): string {
  const key = `plan.problem.${problem.code ?? ''}` as MessageKey;
  if (!problem.code || !(key in PROBLEM_KEYS)) return problem.message;
  return t(key, problem.params);
}

// Every code the one validator can give, from its own list; `satisfies` fails the type-check when one has no words.
const PROBLEM_KEYS: Record<string, true> = Object.fromEntries(PLAN_PROBLEM_CODES.map((code) => [`plan.problem.${code}` as const satisfies MessageKey, true]));

interface Props {
  problems: readonly BoardProblem[];
  className?: string;
  /** "Make the other step pending and start this one", offered with a refused second in-progress step. */
  onStartInstead?(otherId: string): void;
}

/** The refusal, announced when it appears. Renders nothing when there is none. */
export function ErrorList({ problems, className = '', onStartInstead }: Props) {
  const { t } = useI18n();
  if (problems.length === 0) return null;
  const seen = new Set<string>();
  const shown = problems.filter((problem) => {
    const text = problemText(problem, t);
    if (seen.has(text)) return false;
    seen.add(text);
    return true;
  });
  return (
    <div role="alert" className={`error-list ${className}`}>
      {shown.map((problem, index) => (
        <div key={index} className="error-line">
          <p className="error-message">{problemText(problem, t)}</p>
          {onStartInstead && problem.code === 'several_in_progress' && problem.otherId ? (
            <button type="button" className="button button-small error-fix" onClick={() => onStartInstead(problem.otherId!)}>
              {t('plan.problem.startInstead', { other: String(problem.params?.other ?? '') })}
            </button>
          ) : null}
        </div>
      ))}
    </div>
  );
}
