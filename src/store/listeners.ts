/** A set of callbacks; one that throws is reported and never stops the others. */
export class ListenerSet<T = void> {
  readonly #listeners = new Set<(value: T) => void>();
  readonly #onError: (error: unknown) => void;

  constructor(onError: (error: unknown) => void) {
    this.#onError = onError;
  }

  add(listener: (value: T) => void): () => void {
    // Wrapped so the same function subscribed twice gets two independent subscriptions.
    const entry = (value: T) => listener(value);
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  emit(value: T): void {
    for (const listener of this.#listeners) {
      try {
        listener(value);
      } catch (error) {
        this.#onError(error);
      }
    }
  }

  clear(): void {
    this.#listeners.clear();
  }
}
