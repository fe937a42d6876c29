// Terminal resize messages: JSON objects {"Width":w,"Height":h}, written back
// to back on the resize stream or channel.

export interface TerminalSize {
  width: number;
  height: number;
}

export function encodeResize(size: TerminalSize): Buffer {
  return Buffer.from(JSON.stringify({ Width: size.width, Height: size.height }));
}

/** Server side: splits a byte stream of concatenated JSON objects into sizes. */
export class ResizeDecoder {
  private buffered = '';

  push(chunk: Buffer | string): TerminalSize[] {
    this.buffered += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    const out: TerminalSize[] = [];
    for (;;) {
      const start = this.buffered.indexOf('{');
      if (start < 0) {
        this.buffered = '';
        break;
      }
      const end = this.buffered.indexOf('}', start);
      if (end < 0) {
        this.buffered = this.buffered.slice(start);
        break;
      }
      const text = this.buffered.slice(start, end + 1);
      this.buffered = this.buffered.slice(end + 1);
      try {
        const v = JSON.parse(text) as { Width?: unknown; Height?: unknown };
        out.push({ width: Number(v.Width) || 0, height: Number(v.Height) || 0 });
      } catch {
        // A malformed object is skipped, as the kubelet skips undecodable sizes.
      }
    }
    return out;
  }
}
