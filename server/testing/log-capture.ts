import { Writable } from 'node:stream';

/** A log stream for a test server (`logger: { stream }`): its JSON lines, parsed. */
export class LogCapture extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
  get lines(): Record<string, any>[] {
    return this.text.split('\n').filter(Boolean).map((line) => JSON.parse(line));
  }
}
