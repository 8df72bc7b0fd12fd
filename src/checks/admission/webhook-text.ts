/*
 * How the admission checks quote what a webhook answers: its reason, as a JSON string (the way
 * the API server's answer carries it), inside the library's own explanation.
 */

/** `text`, a webhook's reason, quoted for a message. @internal */
export function webhookText(text: string): string {
  return JSON.stringify(text);
}
