// Names the pipeline shares with GitHub and with users' workflow files: changing one breaks
// workflows already written (their `if:` filters and `repository_dispatch` types name them).

/** The repository_dispatch type that starts a stage. */
export const DISPATCH_TYPE = 'itervox-handoff'
/** Set while a stage waits for a person's reply. */
export const NEEDS_INPUT_LABEL = 'needs-input'
/** Set when the pipeline stopped and has no failed state to move the issue to. */
export const NEEDS_ATTENTION_LABEL = 'needs-attention'
