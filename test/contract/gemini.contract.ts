import { contractSuite } from './contract-suite.js'

contractSuite('gemini')
