import type { terminal as en } from '../en/terminal';

export const terminal: Record<keyof typeof en, string> = {
  'terminal.tabs': '终端',
  'terminal.agentTab': '智能体',
  'terminal.agentTab.help': '智能体运行的每条命令，实时显示，只读',
  'terminal.agentBadge': '智能体新运行了 {count} 条命令',
  'terminal.showAgent': '查看智能体运行的命令',
  'terminal.new': '新建终端',
  'terminal.close': '关闭 {name}',
  'terminal.tabName': '{title} {n}',
  'terminal.exitedTab': '{name}（已退出）',
  'terminal.exited': '进程已退出，退出码 {code}。',
  'terminal.exitedSignal': '进程被信号 {signal} 终止。',
  'terminal.agentEmpty': '智能体运行的命令会在运行时显示在这里。',
  'terminal.agentExit': '退出码 {code}',
  'terminal.startFailed': '无法启动 shell：{message}',
  'terminal.noShell': '没有打开的 shell。',
  'terminal.region': '终端 {name}',
  'terminal.note.timeout': '{seconds} 秒后超时：命令及其子进程已被终止。',
  'terminal.note.stopped': '已被你停止：命令及其子进程已被终止。',
  'terminal.note.signal': '被信号 {signal} 终止。',
  'terminal.note.unknownExit': '退出码未知。',
};
