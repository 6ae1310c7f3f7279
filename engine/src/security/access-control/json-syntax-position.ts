// Where JSON text stops being JSON: JSON.parse says only that it is not (without a position in
// Node 20), while a person fixing a rules file needs the line and column.

export interface TextPosition {
  line: number;
  column: number;
}

/** The 1-based line and column of the first character that makes `text` invalid JSON, or undefined when it is valid. */
export function jsonSyntaxErrorPosition(text: string): TextPosition | undefined {
  const offset = new JsonScanner(text).firstErrorOffset();
  return offset === undefined ? undefined : positionOf(text, offset);
}

export function positionOf(text: string, offset: number): TextPosition {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

class SyntaxStop {
  constructor(readonly offset: number) {}
}

/** A recursive-descent recogniser of RFC 8259 JSON that stops at the first offending character. */
class JsonScanner {
  private at = 0;

  constructor(private readonly text: string) {}

  firstErrorOffset(): number | undefined {
    try {
      this.value();
      this.space();
      if (this.at < this.text.length) this.fail();
      return undefined;
    } catch (e) {
      if (e instanceof SyntaxStop) return e.offset;
      throw e;
    }
  }

  private fail(): never {
    throw new SyntaxStop(this.at);
  }

  private space(): void {
    while (this.at < this.text.length && ' \t\n\r'.includes(this.text[this.at])) this.at++;
  }

  private expect(c: string): void {
    if (this.text[this.at] !== c) this.fail();
    this.at++;
  }

  private value(): void {
    this.space();
    const c = this.text[this.at];
    if (c === '{') this.object();
    else if (c === '[') this.array();
    else if (c === '"') this.string();
    else if (c === '-' || (c >= '0' && c <= '9')) this.number();
    else this.literal();
  }

  private object(): void {
    this.expect('{');
    this.space();
    if (this.text[this.at] === '}') {
      this.at++;
      return;
    }
    for (;;) {
      this.space();
      this.string();
      this.space();
      this.expect(':');
      this.value();
      this.space();
      if (this.text[this.at] === '}') {
        this.at++;
        return;
      }
      this.expect(',');
    }
  }

  private array(): void {
    this.expect('[');
    this.space();
    if (this.text[this.at] === ']') {
      this.at++;
      return;
    }
    for (;;) {
      this.value();
      this.space();
      if (this.text[this.at] === ']') {
        this.at++;
        return;
      }
      this.expect(',');
    }
  }

  private string(): void {
    this.expect('"');
    while (this.at < this.text.length) {
      const c = this.text[this.at];
      if (c === '"') {
        this.at++;
        return;
      }
      if (c < ' ') this.fail();
      if (c === '\\') {
        this.at++;
        const e = this.text[this.at];
        if (e === 'u') {
          for (let i = 1; i <= 4; i++) if (!/[0-9a-fA-F]/.test(this.text[this.at + i] ?? '')) this.fail();
          this.at += 4;
        } else if (e === undefined || !'"\\/bfnrt'.includes(e)) {
          this.fail();
        }
      }
      this.at++;
    }
    this.fail();
  }

  private number(): void {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(this.text.slice(this.at));
    if (match === null) this.fail();
    this.at += match[0].length;
  }

  private literal(): void {
    for (const word of ['true', 'false', 'null']) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return;
      }
    }
    this.fail();
  }
}
