import { userInfo } from 'node:os'
import { relative, resolve } from 'node:path'

import { repoRoot } from '../git/repo.js'
import { localIssueId } from '../tracker/local.js'
import { parseCommandArgs, stringOpt, UsageError, type Command } from './args.js'
import { withInterrupts } from './interrupts.js'
import { runLocalPipeline, type LocalPipelineResult } from './local-pipeline.js'
import { colourOn, outputMode, StageProgress, type Out } from './progress.js'
import { rememberCheckout, restoreCheckout } from './user-checkout.js'
import { findWorkflowFile, loadWorkflowForCli } from './workflow.js'

const USAGE = `
Usage: itervox-handoff run --issue ID [--until-idle] [--reply TEXT | --comment TEXT | --restart [--state STATE]] [--workflow FILE] [--json]

Runs the stage for the current state of the local issue .itervox/issues/ID.md, the way the
action runs it for a GitHub issue: on the branch itervox/ID (made from workspace.base_branch,
or the repository's default branch, the first time), with the same prompt and checks. The
deliverable, or a .partial.md when the agent failed, is committed to that branch, as you (git's
user.name and user.email, or GIT_AUTHOR_* and GIT_COMMITTER_*; github-actions[bot] when git
knows no one), and the issue file's state moves as the pipeline decides. Nothing is pushed. The issue's run record is kept in
.itervox/runs/. When it ends, you are back on the branch you were on.

Options:
  --issue ID        the local issue, e.g. DEMO-1 (required)
  --until-idle      follow the pipeline until it stops, waits for an answer or escalates
  --reply TEXT      answer the question a waiting stage asked, and resume that stage
  --comment TEXT    comment on the issue as a person would: it answers a waiting stage, or
                    else runs the tracker_comment_added automation whose filter admits it
  --restart         start a stopped issue (escalated to the failed state, or flagged
                    needs-attention) again: a new entry into the state it stopped in, with
                    fresh attempts; the branch and its handoffs stay for the next agent
  --state STATE     with --restart: the state to start in instead (one that starts an
                    automation)
  --workflow FILE   the workflow file (default: the WORKFLOW.md here or in the nearest
                    folder above, up to the repository's top level)
  --json            print one JSON object at the end instead of progress lines
  -h, --help        show this help

Exit status: 0 when the pipeline ran or had nothing to run, 1 on a mistake or when the
pipeline escalated (gave up), 2 on a usage mistake, 130 when interrupted.
`

export const runCommand: Command = {
  summary: "run the stage for a local issue's state (or the whole pipeline)",
  usage: USAGE,
  async run(argv) {
    const { values, help } = parseCommandArgs('run', USAGE, argv, {
      issue: { type: 'string' },
      'until-idle': { type: 'boolean' },
      reply: { type: 'string' },
      comment: { type: 'string' },
      restart: { type: 'boolean' },
      state: { type: 'string' },
      workflow: { type: 'string' },
      json: { type: 'boolean' }
    })
    if (help) return 0
    const typedId = stringOpt(values.issue)
    if (!typedId) throw new UsageError('run: --issue ID is required, e.g. --issue DEMO-1', 'run')
    const commentText = stringOpt(values.comment)
    if (commentText !== undefined && values.reply !== undefined) {
      throw new UsageError('run: give either --reply or --comment, not both', 'run')
    }
    const replyText = commentText ?? stringOpt(values.reply)
    if (replyText !== undefined && !replyText.trim()) {
      throw new UsageError(
        commentText !== undefined
          ? 'run: --comment needs the text of your comment'
          : 'run: --reply needs the text of your answer',
        'run'
      )
    }
    const restart = values.restart === true
    const restartIn = stringOpt(values.state)
    if (restartIn !== undefined && !restart) {
      throw new UsageError('run: --state goes with --restart: --restart --state STATE', 'run')
    }
    if (restart && replyText !== undefined) {
      throw new UsageError('run: --reply answers a waiting stage; leave out --restart', 'run')
    }
    const workflowFile = findWorkflowFile(stringOpt(values.workflow))
    const root = await repoRoot(process.cwd())
    const issueId = localIssueId(root, typedId)
    const config = loadWorkflowForCli(workflowFile)

    const mode = outputMode(values.json === true, process.stdout)
    const progress = new StageProgress(process.stdout, mode, colourOn(mode))
    const was = await rememberCheckout(root)
    let ran: { result: LocalPipelineResult; interrupted: boolean }
    try {
      ran = await withInterrupts((signal) =>
        runLocalPipeline({
          root,
          config,
          workflowPath: relative(root, resolve(workflowFile)).split('\\').join('/'),
          issueId,
          parentEnv: process.env,
          untilIdle: values['until-idle'] === true,
          reply: replyText ? { body: replyText, author: localUser() } : undefined,
          comment: commentText !== undefined,
          restart: restart
            ? { ...(restartIn !== undefined ? { state: restartIn } : {}), by: localUser() }
            : undefined,
          signal,
          sections: progress.sections,
          onStageStart: (s) => progress.start(s),
          onStageEnd: (s) => progress.end(s)
        })
      )
    } finally {
      progress.clear()
      const stuck = await restoreCheckout(root, was)
      if (stuck) process.stderr.write(`warning: ${stuck}\n`)
    }
    const { result } = ran

    if (mode === 'json') process.stdout.write(JSON.stringify(result, null, 2) + '\n')
    else {
      for (const w of result.warnings) process.stderr.write(`warning: ${w}\n`)
      printEnd(process.stdout, result)
    }
    if (ran.interrupted) return 130
    // A run_failed automation's run after the failed stage leaves the pipeline stopped.
    const last = result.stages.filter((s) => s.kind !== 'automation').at(-1)
    return last?.next.kind === 'escalate' ? 1 : 0
  }
}

/** Where the issue stands once the command is done, and what to do next. */
function printEnd(out: Out, r: LocalPipelineResult): void {
  const where = r.branch ? ` on branch ${r.branch}` : ''
  const state = r.state === null ? 'no state' : `"${r.state}"`
  if (r.stages.length === 0 && r.idle) {
    out.write(`${r.issue} is in ${state}; nothing to run: ${r.idle.reason}\n`)
  } else {
    out.write(`${r.issue} is in ${state}${where}${r.idle ? `: ${r.idle.reason}` : ''}\n`)
  }
  if (r.idle?.question !== undefined) {
    out.write(`\nThe agent asks:\n\n${indent(r.idle.question)}\n\n`)
    out.write(`Answer with: itervox-handoff run --issue ${r.issue} --reply "..."\n`)
  } else if (!r.idle) {
    out.write(`Next: itervox-handoff run --issue ${r.issue} (or add --until-idle)\n`)
  }
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n')
}

function localUser(): string {
  try {
    return userInfo().username || 'you'
  } catch {
    return 'you'
  }
}
