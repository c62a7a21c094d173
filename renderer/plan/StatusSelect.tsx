import { PLAN_STATUSES, type PlanStatus } from '../../common/plan/types';

export const STATUS_LABELS: Record<PlanStatus, string> = {
  pending: 'Pending',
  in_progress: 'In progress',
  completed: 'Completed',
};

interface Props {
  status: PlanStatus;
  content: string;
  onChange(status: PlanStatus): void;
}

/**
 * The item's status as a word (the row shows its marker), and the control that changes it.
 * Controlled by the STORED status: until main accepts a change, it keeps showing the stored one.
 */
export function StatusSelect({ status, content, onChange }: Props) {
  return (
    <span className={`status-pill status-${status}`}>
      <select
        className="status-select"
        aria-label={`Status of ${content}`}
        value={status}
        data-part="status"
        onChange={(event) => onChange(event.target.value as PlanStatus)}
      >
        {PLAN_STATUSES.map((value) => (
          <option key={value} value={value}>
            {STATUS_LABELS[value]}
          </option>
        ))}
      </select>
    </span>
  );
}
