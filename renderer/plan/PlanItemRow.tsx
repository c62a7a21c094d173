import type { DragEvent, KeyboardEvent } from 'react';
import type { PlanItem, PlanStatus } from '../../common/plan/types';
import { useI18n } from '../i18n/I18nProvider';
import { ArrowDownIcon, ArrowUpIcon, GripIcon, StatusIcon, TrashIcon } from '../ui/icons';
import { ErrorList } from './ErrorList';
import { ItemText } from './ItemText';
import type { BoardProblem } from './proposals';
import { StatusSelect } from './StatusSelect';

export type DropSide = 'before' | 'after';

export interface RowDrag {
  dragging: boolean;
  dropSide: DropSide | null;
  onDragStart(event: DragEvent<HTMLElement>): void;
  onDragOver(event: DragEvent<HTMLLIElement>): void;
  onDrop(event: DragEvent<HTMLLIElement>): void;
  onDragEnd(): void;
}

interface Props {
  item: PlanItem;
  first: boolean;
  last: boolean;
  errors: readonly BoardProblem[];
  /** The task stopped while this step was in progress: shown as interrupted until work resumes. */
  interrupted: boolean;
  editing: boolean;
  hintId: string;
  drag: RowDrag;
  onStartEdit(): void;
  onStopEdit(): void;
  onReword(content: string): Promise<boolean>;
  onStatus(status: PlanStatus): void;
  /** `part` is the control that had focus, so focus can follow the item. */
  onMove(delta: number, part: string): void;
  onDelete(): void;
  /** Sets the step in progress elsewhere (`otherId`) pending and starts this one, in one edit. */
  onStartInstead(otherId: string): void;
}

/** One step of the plan: marker, text, status, and the controls that change it. */
export function PlanItemRow(props: Props) {
  const { item, first, last, errors, drag } = props;
  const { t } = useI18n();
  const content = item.content;

  const onKeyDown = (event: KeyboardEvent<HTMLLIElement>) => {
    if (!event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return;
    const target = event.target as HTMLElement;
    if (target.tagName === 'INPUT' || target.tagName === 'SELECT') return;
    event.preventDefault();
    props.onMove(event.key === 'ArrowUp' ? -1 : 1, target.dataset.part ?? 'text');
  };

  const classes = ['plan-item', `is-${item.status}`];
  if (errors.length > 0) classes.push('has-error');
  if (props.interrupted) classes.push('is-interrupted');
  if (props.editing) classes.push('is-editing');
  if (drag.dragging) classes.push('is-dragging');
  if (drag.dropSide) classes.push(`drop-${drag.dropSide}`);

  return (
    <li className={classes.join(' ')} data-item-id={item.id} data-status={item.status} onKeyDown={onKeyDown} onDragOver={drag.onDragOver} onDrop={drag.onDrop}>
      <span
        className="drag-handle"
        draggable
        data-part="handle"
        title={t('plan.item.dragTitle')}
        aria-hidden="true"
        onDragStart={drag.onDragStart}
        onDragEnd={drag.onDragEnd}
      >
        <GripIcon />
      </span>
      <span className="item-marker">
        <StatusIcon status={item.status} />
      </span>
      <div className="item-main">
        <ItemText
          content={item.content}
          editing={props.editing}
          onStartEdit={props.onStartEdit}
          onStopEdit={props.onStopEdit}
          onSave={props.onReword}
          hintId={props.hintId}
        />
        {item.status === 'in_progress' && item.activeForm ? <p className="active-form">{item.activeForm}…</p> : null}
        <div className="item-meta">
          <StatusSelect status={item.status} content={item.content} onChange={props.onStatus} />
          {props.interrupted ? (
            <span className="interrupted-badge" title={t('plan.item.interruptedTitle')}>
              {t('plan.item.interrupted')}
            </span>
          ) : null}
          {/* In the meta line, not over the text: hovering never hides the step's first line (16.9). */}
          <div className="item-actions">
            <button
              type="button"
              className="icon-button"
              aria-label={t('plan.item.moveUp', { content })}
              title={t('plan.item.moveUpTitle')}
              data-part="up"
              disabled={first}
              onClick={() => props.onMove(-1, 'up')}
            >
              <ArrowUpIcon />
            </button>
            <button
              type="button"
              className="icon-button"
              aria-label={t('plan.item.moveDown', { content })}
              title={t('plan.item.moveDownTitle')}
              data-part="down"
              disabled={last}
              onClick={() => props.onMove(1, 'down')}
            >
              <ArrowDownIcon />
            </button>
            <button
              type="button"
              className="icon-button icon-button-danger"
              aria-label={t('plan.item.delete', { content })}
              title={t('plan.item.deleteTitle')}
              data-part="delete"
              onClick={props.onDelete}
            >
              <TrashIcon />
            </button>
          </div>
        </div>
      </div>
      <ErrorList problems={errors} className="item-errors" onStartInstead={props.onStartInstead} />
    </li>
  );
}
