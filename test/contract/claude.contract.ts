import { contractSuite } from './contract-suite.js'

contractSuite('claude')
