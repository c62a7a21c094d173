import { useCallback, useId, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import { readiness } from '../../common/plan/graph';
import type { PlanItem, PlanStatus } from '../../common/plan/types';
import { useI18n } from '../i18n/I18nProvider';
import { ArrowDownIcon, ArrowUpIcon, GripIcon, LinkIcon, StatusIcon, TrashIcon } from '../ui/icons';
import { DependencyPicker } from './DependencyPicker';
import { ErrorList } from './ErrorList';
import { ItemDependencies } from './ItemDependencies';
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
  /** The whole stored plan: what the step waits for, and the steps it may wait for. */
  items: readonly PlanItem[];
  /** Some step of the plan waits for another: pending steps then say whether they are ready. */
  graph: boolean;
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
  /** The step waits for `on` from now on (`waits`), or no longer. */
  onDependency(on: string, waits: boolean): void;
}

/** One step of the plan: marker, text, status, and the controls that change it. */
export function PlanItemRow(props: Props) {
  const { item, first, last, errors, drag } = props;
  const { t } = useI18n();
  const content = item.content;
  const [picking, setPicking] = useState(false);
  const pickerId = useId();
  const pickerButton = useRef<HTMLButtonElement>(null);
  const closePicker = useCallback(() => {
    setPicking(false);
    pickerButton.current?.focus();
  }, []);
  const state = readiness(item, props.items);

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
  if (props.graph && state === 'blocked') classes.push('is-blocked');

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
        <ItemDependencies item={item} items={props.items} />
        <div className="item-meta">
          <span className="item-id" title={t('plan.item.idTitle')}>
            #{item.id}
          </span>
          <StatusSelect status={item.status} content={item.content} onChange={props.onStatus} />
          {props.graph && state === 'ready' ? (
            <span className="readiness-badge is-ready" title={t('plan.readyTitle')}>
              {t('plan.ready')}
            </span>
          ) : null}
          {props.interrupted ? (
            <span className="interrupted-badge" title={t('plan.item.interruptedTitle')}>
              {t('plan.item.interrupted')}
            </span>
          ) : null}
          {/* In the meta line, not over the text: hovering never hides the step's first line (16.9). */}
          <div className="item-actions">
            <button
              type="button"
              ref={pickerButton}
              className={`icon-button${picking ? ' is-active' : ''}`}
              aria-label={t('plan.deps.edit', { content })}
              title={t('plan.deps.editTitle')}
              aria-expanded={picking}
              aria-controls={picking ? pickerId : undefined}
              data-part="deps"
              onClick={() => (picking ? closePicker() : setPicking(true))}
            >
              <LinkIcon />
            </button>
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
        {picking ? <DependencyPicker id={pickerId} item={item} items={props.items} onToggle={props.onDependency} onClose={closePicker} /> : null}
      </div>
      <ErrorList problems={errors} className="item-errors" onStartInstead={props.onStartInstead} />
    </li>
  );
}
