// zod compiles an object schema into a function of its own (new Function) on its first parse,
// which pays off over many parses of it. A run of the action or the CLI parses each schema a
// few times at most, where that compiling costs more than it saves (~10 ms of CPU a stage), so
// every parse asks for zod's plain parser, which checks the same.
export const PARSE_ONCE = { jitless: true } as const
