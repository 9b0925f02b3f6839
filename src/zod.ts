// zod's functional API, zod/mini: its schemas are built in about half the time of the method
// API's, which every step pays at start (the schemas are module constants), and the bundle
// carries no JSON Schema code. It loads no messages of its own: English is set here, for the
// issues whose message WORKFLOW.md's errors show. Import it as a namespace, `import * as z`,
// so that the bundle keeps only what is used.
import { config } from 'zod/mini'
import en from 'zod/v4/locales/en.js'

config(en())

export * from 'zod/mini'
