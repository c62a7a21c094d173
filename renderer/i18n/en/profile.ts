/** Settings: where each value comes from, what the agent runs with for the model, and the hosts it may reach. */
export const profile = {
  'source.default': 'default',
  'source.settings_file': 'settings file',
  'source.setting': 'settings file',
  'source.environment': 'environment',
  'source.session': 'this session',
  'source.endpoint': 'endpoint catalogue',
  'source.learned': 'learned from the service',
  'source.builtin': 'built-in table',
  'source.label': 'Source: {source}',

  'profile.title': 'What the agent runs with',
  'profile.contextWindow': 'Context window',
  'profile.maxTokens': 'Max tokens',
  'profile.thinking': 'Thinking',
  'profile.effort': 'Effort',
  'profile.tokens': '{count} tokens',
  'profile.thinking.adaptive': 'Adaptive',
  'profile.thinking.enabled': 'On, with a budget',
  'profile.thinking.none': 'Off',
  'profile.effort.none': 'None (the model lists no levels)',
  'profile.effort.levels': '{value} (offers {levels})',
  'profile.deprecated': 'The endpoint lists {model} as deprecated: pick a newer model.',
  'profile.models.none': 'The endpoint lists no models: type the model’s name.',
  'profile.models.count': 'Suggestions are the {count} active models the endpoint lists; any name can be typed.',

  'profile.windowNote': 'Empty: {default} tokens, the window the endpoint lists for this model.',
  'network.label': 'Hosts the agent may reach',
  'network.note':
    'One host name or address per line (example.com, 10.0.0.5, ::1), without a scheme, port or path. Listed hosts are reached without asking, private addresses included; others ask first.',
  'network.fromEnvironment': 'Also from KEEL_NETWORK_ALLOW: {hosts}',
} as const;
