// runner.mjs runs one call of a transpiled Beeuni tool module under Node, the
// way the sandbox daemon does: import the module, take its default export and
// call execute(args, context). The Go test drives it.
//
//   node runner.mjs <module.mjs> <case.json>
//
// case.json: { "mode": "describe" | "execute", "args": {}, "env": {},
//   "directory": "...", "abort": "none" | "before" | "after-arrival",
//   "arrivedURL": "http://127.0.0.1:.../test/arrived" }
// It prints one JSON line: { "ok": true, "value": ... } or
// { "ok": false, "name": "...", "message": "..." }.
import { readFile } from 'node:fs/promises'
import { pathToFileURL } from 'node:url'

const [modulePath, casePath] = process.argv.slice(2)
const spec = JSON.parse(await readFile(casePath, 'utf8'))
const tool = (await import(pathToFileURL(modulePath).href)).default

function print(result) {
  process.stdout.write(JSON.stringify(result) + '\n')
}

if (spec.mode === 'describe') {
  print({
    ok: true,
    value: {
      description: tool.description,
      parameters: tool.parameters,
      executeType: typeof tool.execute,
    },
  })
} else {
  const controller = new AbortController()
  if (spec.abort === 'before') controller.abort()
  const context = {
    sessionId: 'ses_test',
    agent: 'beeuni',
    directory: spec.directory,
    env: spec.env ?? {},
    signal: controller.signal,
  }
  const call = Promise.resolve().then(() => tool.execute(spec.args ?? {}, context))
  if (spec.abort === 'after-arrival') {
    // Wait until the fake API holds the tool's request, then stop the turn.
    const arrived = await fetch(spec.arrivedURL)
    if (!arrived.ok) throw new Error(`arrivedURL answered ${arrived.status}`)
    controller.abort()
  }
  try {
    print({ ok: true, value: await call })
  } catch (error) {
    print({ ok: false, name: String(error?.name ?? ''), message: String(error?.message ?? error) })
  }
}
