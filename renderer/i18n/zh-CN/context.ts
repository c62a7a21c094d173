import type { context as en } from '../en/context';

export const context: Record<keyof typeof en, string> = {
  'context.meter': '{used} / {window}',
  'context.meterLabel': '上下文：',
  'context.meterTitle':
    '上下文：约 {used} / {window} 个 token（{percent}%）。达到 {threshold} 个 token 时 Keel 会腾出空间：先清除较早的工具结果，再概括较早的消息。计划单独保存，不会丢失。',
  'context.compactNow': '立即压缩',
  'context.compacting': '正在压缩…',
  'context.compactTitle': '现在概括较早的对话以腾出空间（计划和记录都会保留）',
  'context.compactNothing': '暂时没有可压缩的内容',
  'context.compactFailed': '压缩失败：{message}',
  'context.instructions.one': '{name}',
  'context.instructions.many': '{count} 个指令文件',
  'context.instructionsTitle': '每个任务开始时提供给智能体的指令文件：',
  'context.instructions.user': '（你的，适用于所有工作区）',
  'context.instructions.cut': '（已截断：其余内容仍在文件中）',
  'chat.compaction.cleared': 'Keel 腾出了空间：清除了 {count} 个较早的工具结果（{before} → {after} 个 token）',
  'chat.compaction.summarized': 'Keel 腾出了空间：概括了 {count} 条较早的消息（{before} → {after} 个 token）',
  'chat.compaction.summaryHeading': '智能体据以继续的摘要',
  'chat.compaction.clearedHeading': '已清除（智能体可以重新读取或运行）',
  'chat.compaction.reason.threshold': '对话接近上下文窗口上限',
  'chat.compaction.reason.refused': '模型以请求过长为由拒绝',
  'chat.compaction.reason.manual': '由你发起',
};
