import { describe, expect, it } from '@jest/globals'
import { blockerNumbers } from '../../../src/pipeline/decision/blocker-phrases.js'

describe('blockerNumbers', () => {
  it('reads each phrase itervox reads, with its list of issues', () => {
    expect(blockerNumbers('Blocked by #3')).toEqual([3])
    expect(blockerNumbers('blocked on #4, #5 and #6')).toEqual([4, 5, 6])
    expect(blockerNumbers('This depends on: #7 & #8')).toEqual([7, 8])
    expect(
      blockerNumbers('depends upon #9\nrequires #10\nwaiting on #11, waiting for #12')
    ).toEqual([9, 10, 11, 12])
  })

  it('names nothing for a plain mention, another repository, or text in code', () => {
    expect(blockerNumbers('See #3; related to #4')).toEqual([])
    expect(blockerNumbers('blocked by octo/other#3')).toEqual([])
    expect(blockerNumbers('blocked by the release of #3')).toEqual([])
    expect(blockerNumbers('```\nblocked by #3\n```\nand `depends on #4`')).toEqual([])
    expect(blockerNumbers('unblocked by #3 is fine; prerequires #4')).toEqual([])
  })

  it('names each issue once', () => {
    expect(blockerNumbers('blocked by #3. Also requires #3.')).toEqual([3])
  })
})
