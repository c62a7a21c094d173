import type { plan as en } from '../en/plan';

export const plan: Record<keyof typeof en, string> = {
  'plan.title': '计划',
  'plan.steps': '计划步骤',
  'plan.lastChange.agent': '最近修改：智能体',
  'plan.lastChange.you': '最近修改：你',
  'plan.versionChip': 'v{version}',
  'plan.versionTitle': '版本 {version}，{date}',
  'plan.progress': '已完成 {completed}/{total}',
  'plan.progressLabel': '计划进度',
  'plan.empty.title': '还没有计划。',
  'plan.empty.text':
    '计划是智能体在当前任务中的清单：它用 todo 工具写下计划，你也可以随时在这里添加、改写、调整顺序或勾选步骤；智能体在下一步就会看到你的修改。',
  'plan.hint': 'Enter 或 F2 改写步骤 · Alt+↑/↓ 移动步骤 · 拖动手柄调整顺序',

  'plan.add.label': '新步骤',
  'plan.add.placeholder': '添加一个步骤…',
  'plan.add.button': '添加',

  'plan.item.reword': '改写“{content}”',
  'plan.item.rewordTitle': '单击、按 Enter 或 F2 改写',
  'plan.item.dragTitle': '拖动以调整顺序',
  'plan.item.moveUp': '上移“{content}”',
  'plan.item.moveUpTitle': '上移（Alt+↑）',
  'plan.item.moveDown': '下移“{content}”',
  'plan.item.moveDownTitle': '下移（Alt+↓）',
  'plan.item.delete': '删除“{content}”',
  'plan.item.deleteTitle': '删除',

  'plan.status.label': '“{content}”的状态',
  'plan.status.pending': '待办',
  'plan.status.in_progress': '进行中',
  'plan.status.completed': '已完成',


  'plan.stopped.title': '已停止：计划未完成',
  'plan.stopped.text': '智能体在还有步骤未完成时结束了回合，为避免无休止地循环，Keel 停止了这个任务：{total} 个步骤中有 {open} 个尚未完成。你可以让它继续，或者在工作确已完成时把计划标记为完成。',
  'plan.stopped.continue': '继续',
  'plan.stopped.continueMessage': '请继续完成计划中未完成的步骤。',
  'plan.stopped.markDone': '将计划标记为完成',
  'plan.stopped.markDoneFailed': '无法将计划标记为完成；原因见计划面板。',
};
