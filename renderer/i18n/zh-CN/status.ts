import type { status as en } from '../en/status';

/** 状态栏的推理力度与沙箱状态。 */
export const status: Record<keyof typeof en, string> = {
  'status.effort.label': '推理力度',
  'status.effort.title': '模型在行动前思考的程度。所选级别用于本会话的下一次请求。',
  'status.effort.low': '低',
  'status.effort.medium': '中',
  'status.effort.high': '高',
  'status.effort.xhigh': '很高',
  'status.effort.max': '最高',
  'status.sandbox.checking': '沙箱：检查中…',
  'status.sandbox.on': '已沙箱隔离',
  'status.sandbox.onVia': '已沙箱隔离（{via}）',
  'status.sandbox.onTitle': '智能体的命令只能写入此文件夹，不能读取机密，只能访问允许的主机。',
  'status.sandbox.onWithGaps': '{text}，有缺口',
  'status.sandbox.gapsTitle': '此处无法限制：{gaps}。',
  'status.sandbox.off': '未隔离：已关闭',
  'status.sandbox.offTitle': '设置中关闭了沙箱（sandbox: "off" 或 KEEL_SANDBOX=off）：命令以你的权限运行。',
  'status.sandbox.unavailable': '未隔离：{why}',
  'status.sandbox.unavailableTitle': '沙箱无法启动（{why}）。命令运行前会先询问。',
  'status.sandbox.required': '沙箱不可用：{why}',
  'status.sandbox.requiredTitle': '设置要求使用沙箱，但它无法启动（{why}）：智能体不能运行命令。',
  'status.sandbox.unsandboxed': '未隔离：此系统暂不支持',
  'status.sandbox.unsandboxedTitle': 'Keel 暂无此系统的沙箱：命令沿用通常的批准方式。',
};
