/**
 * An action input as the runner passes it (INPUT_<NAME>, spaces as underscores) and as
 * @actions/core's getInput reads it: trimmed, empty when unset. Read from the `env` given, so
 * that the settings can be read from any environment (tests pass their own).
 */
export function actionInput(env: NodeJS.ProcessEnv, name: string): string {
  return (env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim()
}
