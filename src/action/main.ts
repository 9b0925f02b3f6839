import * as core from '@actions/core'

core.setFailed('handoff-action: the stage runner is not built yet.')
