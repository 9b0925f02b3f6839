// The record store a LinearTracker is given, kept in memory as the JSON a real store would hold,
// so every load parses what was saved (a record that does not parse is an error, as it would be).
import { parseRecord, type IssueRecord } from '../../src/pipeline/record/record.js'
import type { IssueRecordStore } from '../../src/tracker/repo-records.js'

export class MemoryRecordStore implements IssueRecordStore {
  readonly stored = new Map<string, string>()

  async load(issueId: string): Promise<IssueRecord | null> {
    const text = this.stored.get(issueId)
    if (text === undefined) return null
    const record = parseRecord(JSON.parse(text))
    if (!record) throw new Error(`the stored record of ${issueId} does not parse`)
    return record
  }

  async save(issueId: string, record: IssueRecord): Promise<void> {
    this.stored.set(issueId, JSON.stringify(record))
  }
}
