interface Props {
  /** The rule in words. */
  text: string;
  /** The rule as stored, e.g. `command:npm` or `mcp:github`. */
  rule: string;
  actionLabel: string;
  /** Names the rule, for a screen reader that hears only the button. */
  actionAriaLabel: string;
  onAction(): void;
}

/** One allowed rule in Settings, in words and as stored, with the button that takes it back. */
export function RuleRow({ text, rule, actionLabel, actionAriaLabel, onAction }: Props) {
  return (
    <li className="rule-row">
      <span className="rule-text">
        <span>{text}</span>
        <code className="rule-code">{rule}</code>
      </span>
      <button type="button" className="button button-small" aria-label={actionAriaLabel} onClick={onAction}>
        {actionLabel}
      </button>
    </li>
  );
}
