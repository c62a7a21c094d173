/** The last lines a server wrote to stderr: what a person needs to see why it failed. */
export class StderrTail {
  private text = '';

  constructor(
    private readonly maxChars = 4000,
    private readonly maxLines = 20,
  ) {}

  push(chunk: string): void {
    this.text = (this.text + chunk).slice(-this.maxChars * 2);
  }

  clear(): void {
    this.text = '';
  }

  get value(): string {
    const lines = this.text.replace(/\r\n?/g, '\n').split('\n');
    if (lines.at(-1) === '') lines.pop();
    return lines.slice(-this.maxLines).join('\n').slice(-this.maxChars);
  }
}
