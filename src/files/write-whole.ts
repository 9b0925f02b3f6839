import { renameSync, writeFileSync } from 'node:fs'

/**
 * Writes the file through a temporary one beside it and a rename, so a reader never sees half
 * of it and a run killed mid-write leaves the old file as it was.
 */
export function writeWhole(path: string, text: string, o: { mode?: number } = {}): void {
  const tmp = `${path}.tmp-${process.pid}`
  writeFileSync(tmp, text, o.mode === undefined ? undefined : { mode: o.mode })
  renameSync(tmp, path)
}
