/** The validator's own words, announced when they appear. Renders nothing when there are none. */
export function ErrorList({ messages, className = '' }: { messages: readonly string[]; className?: string }) {
  if (messages.length === 0) return null;
  return (
    <div role="alert" className={`error-list ${className}`}>
      {messages.map((message, index) => (
        <p key={index} className="error-message">
          {message}
        </p>
      ))}
    </div>
  );
}
