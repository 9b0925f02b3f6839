// `tsc --noEmit -p tsconfig.test.json` and `eslint .` in one process, as `npm test` runs them:
// eslint's type-aware rules read the very program the type check built instead of building
// the whole project's again, which took a third of the two's CPU. Prints what each prints and
// exits 1 if either found a problem.
import { ESLint } from 'eslint'
import ts from 'typescript'

const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: report }
const config = ts.getParsedCommandLineOfConfigFile('tsconfig.test.json', {}, host)
if (!config) process.exit(1)
const program = ts.createProgram({
  rootNames: config.fileNames,
  options: config.options,
  projectReferences: config.projectReferences,
  configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(config)
})
const diagnostics = ts.sortAndDeduplicateDiagnostics(ts.getPreEmitDiagnostics(program))

function report(diagnostic) {
  process.stdout.write(
    ts.formatDiagnostics([diagnostic], {
      getCanonicalFileName: (f) => f,
      getCurrentDirectory: ts.sys.getCurrentDirectory,
      getNewLine: () => ts.sys.newLine
    })
  )
}

diagnostics.forEach(report)

const eslint = new ESLint({
  overrideConfig: {
    files: ['src/**/*.{ts,cts}', 'test/**/*.ts'],
    languageOptions: { parserOptions: { programs: [program], project: false } }
  }
})
const results = await eslint.lintFiles(['.'])
process.stdout.write(await (await eslint.loadFormatter('stylish')).format(results))

const lintErrors = results.reduce((n, r) => n + r.errorCount + r.fatalErrorCount, 0)
process.exitCode = diagnostics.length || lintErrors ? 1 : 0
