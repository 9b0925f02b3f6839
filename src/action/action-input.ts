/**
 * An action input as the runner passes it (INPUT_<NAME>, spaces as underscores) and as
 * @actions/core's getInput reads it: trimmed, empty when unset. Read without @actions/core so
 * that the main step's light entry can read inputs before the rest of the program loads.
 */
export function actionInput(env: NodeJS.ProcessEnv, name: string): string {
  return (env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim()
}
