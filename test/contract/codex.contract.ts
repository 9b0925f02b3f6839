import { contractSuite } from './contract-suite.js'

contractSuite('codex')
