import type { profile as en } from '../en/profile';

/** 设置：各值的来源、模型的运行参数、智能体可访问的主机。 */
export const profile: Record<keyof typeof en, string> = {
  'source.default': '默认',
  'source.settings_file': '设置文件',
  'source.setting': '设置文件',
  'source.environment': '环境变量',
  'source.session': '本会话',
  'source.endpoint': '端点模型目录',
  'source.learned': '从服务获知',
  'source.builtin': '内置表',
  'source.label': '来源：{source}',

  'profile.title': '智能体的运行参数',
  'profile.contextWindow': '上下文窗口',
  'profile.maxTokens': '最大输出 token',
  'profile.thinking': '思考',
  'profile.effort': '推理力度',
  'profile.tokens': '{count} token',
  'profile.thinking.adaptive': '自适应',
  'profile.thinking.enabled': '开启（有预算）',
  'profile.thinking.none': '关闭',
  'profile.webSearch': '网页搜索',
  'profile.webSearch.on': '提供给模型',
  'profile.webSearch.off': '不提供',
  'profile.effort.none': '无（该模型未列出级别）',
  'profile.effort.levels': '{value}（可选 {levels}）',
  'profile.deprecated': '端点将 {model} 列为已弃用：请选择较新的模型。',
  'profile.models.none': '端点未列出模型：请输入模型名称。',
  'profile.models.count': '建议来自端点列出的 {count} 个可用模型；也可输入任意名称。',

  'profile.windowNote': '留空：{default} 个 token，即端点为此模型列出的窗口。',
  'network.label': '智能体可访问的主机',
  'network.note': '每行一个主机名或地址（example.com、10.0.0.5、::1），不含协议、端口或路径。列出的主机无需询问即可访问（包括私有地址）；其他主机会先询问。',
  'network.fromEnvironment': '另有来自 KEEL_NETWORK_ALLOW 的：{hosts}',
};
