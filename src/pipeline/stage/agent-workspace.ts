import { agentConfigChanges, makeFolders, putAgentConfig } from '../../git/agent-config.js'
import { HANDOFF_DIR } from '../../handoff/index.js'

/**
 * The tree as the agent finds it: its CLI's configuration (`.claude/`, `CLAUDE.md`, ...) as
 * the trusted commit has it, not as the issue branch does (an earlier agent or a push could
 * have put settings there that send the key elsewhere or run hooks), and the handoff folder
 * ready for its deliverable. `tree` holds `baseSha`'s files, so only the paths where the two
 * commits differ need to change. Returns warnings.
 */
export async function prepareAgentTree(o: {
  repo: string
  tree: string
  trustedCommit: string
  baseSha: string
}): Promise<string[]> {
  const skipped = await putAgentConfig({
    repo: o.repo,
    tree: o.tree,
    commit: o.trustedCommit,
    paths: await agentConfigChanges(o.repo, o.baseSha, o.trustedCommit)
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
 * goes, so the next stage starts from the branch. The tree holds the trusted commit's
 * configuration and `head`'s other files: only the paths where the two commits differ, and
 * those refused, need to change.
 */
export async function restoreBranchConfig(o: {
  repo: string
  head: string
  trustedCommit: string
  refused: readonly string[]
}): Promise<void> {
  await putAgentConfig({
    repo: o.repo,
    tree: o.repo,
    commit: o.head,
    paths: [...(await agentConfigChanges(o.repo, o.trustedCommit, o.head)), ...o.refused]
  })
}
