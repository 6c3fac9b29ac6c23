import { escapePointer } from '../json/escape-pointer.js';
import type { JsonValue } from '../json/json.js';
import type { ToolResultContent } from '../messages/messages.js';
import type { ReferencedArgument } from './data-flow-report.js';

/** A quarantined output, kept out of the model's context under its handle. */
export interface QuarantinedDocument {
  readonly handle: string;
  readonly toolName: string;
  readonly callId: string;
  readonly content: ToolResultContent;
}

/** A value an extraction read from a document, under the reference the model was sent. */
interface ExtractedValue {
  readonly value: JsonValue;
  readonly document: QuarantinedDocument;
}

/** A reference as the model writes it: `$doc1`, then field names or indexes (`$doc1.payee.iban`), then `#2` for a re-read. */
const REFERENCE = /\$doc[0-9]+(?:\.[A-Za-z0-9_-]+)*(?:#[0-9]+)?/g;
const WHOLE_REFERENCE = /^\s*\$doc[0-9]+(?:\.[A-Za-z0-9_-]+)*(?:#[0-9]+)?\s*$/;

/** The run's quarantined documents and the values extracted from them, by reference. */
export class Documents {
  readonly #documents = new Map<string, QuarantinedDocument>();
  readonly #values = new Map<string, ExtractedValue>();
  #last = 0;

  get any(): boolean {
    return this.#values.size > 0;
  }

  /** The handle the next quarantined output gets: numbered after every handle the conversation holds. */
  nextHandle(): string {
    return `$doc${this.#last + 1}`;
  }

  add(document: QuarantinedDocument): void {
    this.#documents.set(document.handle, document);
    const number = Number(document.handle.slice('$doc'.length));
    if (Number.isInteger(number) && number > this.#last) this.#last = number;
  }

  get(handle: string): QuarantinedDocument | undefined {
    return this.#documents.get(handle);
  }

  /** The handles the run holds, for a message that lists them. */
  handles(): string[] {
    return [...this.#documents.keys()];
  }

  /** Values read back from a result's record: their references are fixed already. */
  restore(handle: string, values: Readonly<Record<string, JsonValue>>): void {
    const document = this.#documents.get(handle);
    if (document === undefined) return;
    for (const [reference, value] of Object.entries(values)) this.#values.set(reference, { value, document });
  }

  /**
   * Names each leaf of an extraction: `$doc1.iban`, `$doc1.items.0.iban`; a name already taken by another
   * value gets `#2`, `#3`… (a second reading of the same document may differ). Returns the shape the model
   * is shown (every string, number and boolean replaced by its reference; null stays: nothing was found)
   * and the values by reference.
   */
  name(document: QuarantinedDocument, extracted: JsonValue): { shown: JsonValue; values: Record<string, JsonValue> } {
    const values: Record<string, JsonValue> = {};
    const shown = this.#name(document, extracted, document.handle, values, 0);
    return { shown, values };
  }

  #name(
    document: QuarantinedDocument,
    value: JsonValue,
    base: string,
    values: Record<string, JsonValue>,
    depth: number,
  ): JsonValue {
    if (value === null) return null;
    if (Array.isArray(value)) {
      return depth > 32
        ? null
        : value.map((item, index) => this.#name(document, item, `${base}.${index}`, values, depth + 1));
    }
    if (typeof value === 'object') {
      if (depth > 32) return null;
      const shown: Record<string, JsonValue> = {};
      for (const [key, item] of Object.entries(value)) {
        shown[key] = this.#name(
          document,
          item,
          `${base}.${key.replace(/[^A-Za-z0-9_-]/g, '_') || '_'}`,
          values,
          depth + 1,
        );
      }
      return shown;
    }
    let reference = base;
    for (let copy = 2; this.#taken(reference, value); copy += 1) reference = `${base}#${copy}`;
    this.#values.set(reference, { value, document });
    values[reference] = value;
    return reference;
  }

  #taken(reference: string, value: JsonValue): boolean {
    const known = this.#values.get(reference);
    return known !== undefined && known.value !== value;
  }

  /**
   * The input with every reference replaced by its value: a string that is a reference becomes the value
   * (whatever its type); a reference written inside a longer text is replaced there by the value's text.
   * `unknown` lists strings that are a reference the run does not know (the call is then refused).
   */
  resolve(input: JsonValue): { input: JsonValue; references: ReferencedArgument[]; unknown: string[] } {
    const references: ReferencedArgument[] = [];
    const unknown: string[] = [];
    const resolved = this.#resolve(input, '', references, unknown, 0);
    return { input: references.length === 0 ? input : resolved, references, unknown };
  }

  #resolve(
    value: JsonValue,
    path: string,
    references: ReferencedArgument[],
    unknown: string[],
    depth: number,
  ): JsonValue {
    if (typeof value === 'string') return this.#resolveText(value, path, references, unknown);
    if (value === null || typeof value !== 'object' || depth > 64) return value;
    if (Array.isArray(value)) {
      return value.map((item, index) => this.#resolve(item, `${path}/${index}`, references, unknown, depth + 1));
    }
    const resolved: Record<string, JsonValue> = {};
    for (const [key, item] of Object.entries(value)) {
      resolved[key] = this.#resolve(item, `${path}/${escapePointer(key)}`, references, unknown, depth + 1);
    }
    return resolved;
  }

  #resolveText(text: string, path: string, references: ReferencedArgument[], unknown: string[]): JsonValue {
    if (!text.includes('$doc')) return text;
    if (WHOLE_REFERENCE.test(text)) {
      const reference = text.trim();
      const known = this.#values.get(reference);
      if (known === undefined) {
        unknown.push(reference);
        return text;
      }
      references.push(referenced(path, reference, known, true));
      return known.value;
    }
    return text.replace(REFERENCE, (reference) => {
      const known = this.#values.get(reference);
      if (known === undefined) return reference;
      references.push(referenced(path, reference, known, false));
      return typeof known.value === 'string' ? known.value : JSON.stringify(known.value);
    });
  }
}

function referenced(path: string, reference: string, known: ExtractedValue, whole: boolean): ReferencedArgument {
  const { handle, toolName, callId } = known.document;
  return { path, reference, handle, toolName, callId, whole, value: known.value };
}
