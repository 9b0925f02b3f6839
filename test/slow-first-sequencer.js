// Starts the suites that take longest first, so that none of them is left running alone at
// the end. Jest orders by the durations it recorded on earlier runs, but a fresh clone (CI) has
// none and jest then goes by file size, which here says nothing: the e2e and demo suites are
// small files that drive whole pipelines, and started last they stretched jest by a minute.
import Sequencer from '@jest/test-sequencer'

// The schedules suite mostly waits for cron's next minute: started first, others run meanwhile.
const SLOWEST = [
  /\/test\/isolation\/schedules\.test\.ts$/,
  /\/test\/e2e\/[^/]+\.test\.ts$/,
  /\/test\/cli\/demo\.test\.ts$/
]

export default class SlowFirstSequencer extends Sequencer {
  async sort(tests) {
    const sorted = await super.sort(tests)
    const slow = (test) => SLOWEST.some((re) => re.test(test.path))
    return [...sorted.filter(slow), ...sorted.filter((test) => !slow(test))]
  }
}
