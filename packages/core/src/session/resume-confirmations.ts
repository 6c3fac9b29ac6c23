import { type Confirmation, type ConfirmationStore, InMemoryConfirmations } from './confirm.js';

/**
 * The confirmations a resume (`resumeLoop`, and the durable runner through it) grants for the human's recorded decisions, kept apart from the application's
 * own store. They are valid for the resumed turn only (`close` ends them once its reply is built), so an
 * approval that was not used (the call was refused on its re-check) can never confirm a later call, and
 * nothing is left behind in a durable store by a worker that crashed between grant and use. Other
 * confirmations still come from the application's store.
 */
export class ResumeConfirmations implements ConfirmationStore {
  readonly #granted = new InMemoryConfirmations();
  readonly #application: ConfirmationStore;
  #open = true;

  constructor(application: ConfirmationStore) {
    this.#application = application;
  }

  grant(confirmation: Confirmation): void {
    if (this.#open) this.#granted.grant(confirmation);
  }

  consume(confirmation: Confirmation): boolean | Promise<boolean> {
    if (this.#open && this.#granted.consume(confirmation)) return true;
    return this.#application.consume(confirmation);
  }

  close(): void {
    this.#open = false;
  }
}
