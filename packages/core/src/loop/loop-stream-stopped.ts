/**
 * Internal: what the circuit's `emit` rejects with when the application stopped reading a `streamLoop`
 * (`break`, `return()`). It unwinds the circuit like the end of a generator would; `streamLoop` swallows it.
 */
export class LoopStreamStopped extends Error {
  constructor() {
    super('the application stopped reading the loop stream');
    this.name = 'LoopStreamStopped';
  }
}
