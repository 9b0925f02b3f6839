/** A bot account: by the event's sender type, or by GitHub's `[bot]` login suffix. */
export function isBot(actor: string, actorType?: string): boolean {
  return actorType?.toLowerCase() === 'bot' || actor.toLowerCase().endsWith('[bot]')
}
