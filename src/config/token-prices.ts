import type { TokenPrice } from './types.js'

type Written = Partial<
  Record<'codex' | 'gemini', { input_per_mtok: number; output_per_mtok: number }>
>

/** `agent.prices` as WORKFLOW.md writes it, in the config's own names. */
export function tokenPrices(written: Written): Partial<Record<'codex' | 'gemini', TokenPrice>> {
  const out: Partial<Record<'codex' | 'gemini', TokenPrice>> = {}
  for (const cli of ['codex', 'gemini'] as const) {
    const p = written[cli]
    if (p) out[cli] = { inputPerMTok: p.input_per_mtok, outputPerMTok: p.output_per_mtok }
  }
  return out
}
