/** A set of wake-up callbacks; one that throws is reported and never stops the others. */
export class ListenerSet {
  readonly #listeners = new Set<() => void>();
  readonly #onError: (error: unknown) => void;

  constructor(onError: (error: unknown) => void) {
    this.#onError = onError;
  }

  add(listener: () => void): () => void {
    // Wrapped so the same function subscribed twice gets two independent subscriptions.
    const entry = () => listener();
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  emit(): void {
    for (const listener of this.#listeners) {
      try {
        listener();
      } catch (error) {
        this.#onError(error);
      }
    }
  }

  clear(): void {
    this.#listeners.clear();
  }
}
