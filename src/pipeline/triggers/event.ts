// Which comments are the pipeline's own. The events an automation answers (AutomationEvent, in
// ports.ts with the trigger that carries them) are each turned into a run by one trigger file
// in this folder.

/** Every pipeline comment starts with its `<!-- itervox:… -->` marker line (tracker/github.ts). */
const OWN_MARKER = /^<!-- itervox:[A-Za-z0-9:._-]* -->$/

/**
 * The pipeline's own comments (the status comment, its notices, an agent's words it posted):
 * none of them starts a stage or answers one. A person who types the marker only silences
 * their own comment.
 */
export function isOwnComment(body: string): boolean {
  return OWN_MARKER.test(body.replace(/^\s+/, '').split('\n', 1)[0]?.trim() ?? '')
}
