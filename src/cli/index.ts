process.stdout.write('itervox-handoff: no commands yet\n')
