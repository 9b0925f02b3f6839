import { agentConfigAt, makeFolders, putAgentConfig } from '../../git/agent-config.js'
import { HANDOFF_DIR } from '../../handoff/index.js'

/**
 * The tree as the agent finds it: its CLI's configuration (`.claude/`, `CLAUDE.md`, ...) as
 * the trusted commit has it, not as the issue branch does (an earlier agent or a push could
 * have put settings there that send the key elsewhere or run hooks), and the handoff folder
 * ready for its deliverable. Returns warnings.
 */
export async function prepareAgentTree(o: {
  repo: string
  tree: string
  trustedCommit: string
  baseSha: string
}): Promise<string[]> {
  const onBranch = await agentConfigAt(o.repo, o.baseSha)
  const skipped = await putAgentConfig({
    repo: o.repo,
    tree: o.tree,
    commit: o.trustedCommit,
    replacing: onBranch.keys()
  })
  const warnings = skipped.map(
    (p) => `${p} was not given to the agent: a symlink or a file is in its way on the branch`
  )
  if (!(await makeFolders(o.tree, HANDOFF_DIR))) {
    warnings.push(`${HANDOFF_DIR} could not be made: a symlink or a file is in its way`)
  }
  return warnings
}

/**
 * After a stage that ran in the action's own tree (isolation: none): the agent configuration
 * goes back to what the branch's head has, and what the agent left there that was refused
 * goes, so the next stage starts from the branch.
 */
export async function restoreBranchConfig(o: {
  repo: string
  head: string
  trustedCommit: string
  refused: readonly string[]
}): Promise<void> {
  const given = await agentConfigAt(o.repo, o.trustedCommit)
  await putAgentConfig({
    repo: o.repo,
    tree: o.repo,
    commit: o.head,
    replacing: [...given.keys(), ...o.refused]
  })
}
