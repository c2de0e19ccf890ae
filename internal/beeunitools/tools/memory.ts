// memory: the Beeuni tool, as Beeuni maintains it (beeuni-lsp tools eject
// wrote this copy). Keep the name and the `command` and `path` arguments: the
// web UI's memory view reads them, and the beeuni-memory skill names the tool.
//
// The memory is plain files under memory/ in the project's checkout
// (context.directory). Every path must stay inside memory/: `..`, absolute
// paths and symbolic links that lead out are refused.

import { lstat, mkdir, readFile, readdir, realpath, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'

type ToolContext = {
  sessionId?: string
  agent?: string
  directory?: string
  env: Record<string, string | undefined>
  signal?: AbortSignal
}

type MemoryArgs = {
  command?: unknown
  path?: unknown
  file_text?: unknown
  old_str?: unknown
  new_str?: unknown
  insert_line?: unknown
  insert_text?: unknown
  new_path?: unknown
}

const COMMANDS = ['view', 'create', 'str_replace', 'insert', 'delete', 'rename']
const MAX_VIEW_CHARS = 40000

function memoryRoot(context: ToolContext): string {
  return path.resolve(context.directory || process.cwd(), 'memory')
}

function inside(root: string, target: string): boolean {
  return target === root || target.startsWith(root + path.sep)
}

async function exists(target: string): Promise<boolean> {
  try {
    await lstat(target)
    return true
  } catch {
    return false
  }
}

// resolveMemoryPath turns the model's path ("memory/notes.md") into an
// absolute path under memory/, refusing one that escapes it, also through a
// symbolic link in an existing part of the path.
async function resolveMemoryPath(context: ToolContext, value: unknown, argName: string): Promise<string> {
  const raw = String(value ?? '').trim()
  if (!raw) throw new Error(`${argName} is empty: pass a path under memory/, e.g. "memory/notes.md".`)
  if (path.isAbsolute(raw)) throw new Error(`${argName} "${raw}" is absolute: pass a path relative to the project, under memory/, e.g. "memory/notes.md".`)
  const root = memoryRoot(context)
  const target = path.resolve(path.dirname(root), raw)
  if (!inside(root, target)) throw new Error(`${argName} "${raw}" is outside memory/: pass a path under memory/, e.g. "memory/notes.md".`)
  let existing = target
  while (existing !== root && !(await exists(existing))) existing = path.dirname(existing)
  if (await exists(root)) {
    const realRoot = await realpath(root)
    const real = await realpath(existing)
    if (!inside(realRoot, real)) throw new Error(`${argName} "${raw}" leads out of memory/ through a symbolic link: pass a path under memory/.`)
  }
  return target
}

function display(context: ToolContext, target: string): string {
  return path.relative(path.dirname(memoryRoot(context)), target).split(path.sep).join('/') || '.'
}

async function readMemoryFile(target: string, shown: string, signal?: AbortSignal): Promise<string> {
  try {
    return await readFile(target, { encoding: 'utf8', signal })
  } catch (error: any) {
    if (error?.code === 'ENOENT') throw new Error(`${shown} does not exist: create it first, or view "memory" to list the memory files.`)
    if (error?.code === 'EISDIR') throw new Error(`${shown} is a folder: pass a file under it.`)
    throw error
  }
}

function text(value: unknown, argName: string, command: string): string {
  if (typeof value !== 'string') throw new Error(`${command} needs ${argName} as a string.`)
  return value
}

async function listTree(dir: string, prefix: string, depth: number, out: string[], signal?: AbortSignal): Promise<void> {
  signal?.throwIfAborted()
  const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))
  for (const entry of entries) {
    if (entry.isDirectory()) {
      out.push(`${prefix}${entry.name}/`)
      if (depth > 0) await listTree(path.join(dir, entry.name), `${prefix}${entry.name}/`, depth - 1, out, signal)
    } else {
      out.push(`${prefix}${entry.name}`)
    }
  }
}

export default {
  description:
    'Read and edit the project memory: plain files under memory/ that persist across sessions. Commands: view (a folder listing or a file with line numbers), create, str_replace, insert, delete, rename.',
  parameters: {
    type: 'object',
    properties: {
      command: {
        type: 'string',
        enum: ['view', 'create', 'str_replace', 'insert', 'delete', 'rename'],
        description: 'What to do: view, create, str_replace, insert, delete or rename.',
      },
      path: { type: 'string', description: 'A file or folder under memory/, e.g. "memory/notes.md" (view: "memory" lists everything).' },
      file_text: { type: 'string', description: 'create: the whole content of the new file.' },
      old_str: { type: 'string', description: 'str_replace: the exact text to replace; it must occur exactly once in the file.' },
      new_str: { type: 'string', description: 'str_replace: the replacement text.' },
      insert_line: { type: 'integer', description: 'insert: the line after which to insert (0 inserts at the top).' },
      insert_text: { type: 'string', description: 'insert: the text to insert.' },
      new_path: { type: 'string', description: 'rename: the new path, under memory/.' },
    },
    required: ['command', 'path'],
  },
  async execute(args: MemoryArgs, context: ToolContext) {
    const signal = context.signal
    signal?.throwIfAborted()
    const command = String(args.command ?? '')
    if (!COMMANDS.includes(command)) throw new Error(`command must be one of ${COMMANDS.join(', ')}, not ${JSON.stringify(args.command)}.`)
    const target = await resolveMemoryPath(context, args.path, 'path')
    const shown = display(context, target)
    switch (command) {
      case 'view': {
        if (!(await exists(target))) {
          if (target === memoryRoot(context)) return 'memory/ is empty.'
          throw new Error(`${shown} does not exist: view "memory" to list the memory files.`)
        }
        const info = await lstat(target)
        if (info.isDirectory()) {
          const lines: string[] = []
          await listTree(target, `${shown}/`, 2, lines, signal)
          return lines.length ? lines.join('\n') : `${shown}/ is empty.`
        }
        const content = await readMemoryFile(target, shown, signal)
        const numbered = content.split('\n').map((line, i) => `${String(i + 1).padStart(6)}\t${line}`).join('\n')
        return numbered.length > MAX_VIEW_CHARS ? `${numbered.slice(0, MAX_VIEW_CHARS)}\n… (cut; the file has ${content.length} characters)` : numbered
      }
      case 'create': {
        const content = text(args.file_text, 'file_text', 'create')
        await mkdir(path.dirname(target), { recursive: true })
        await writeFile(target, content, { encoding: 'utf8', signal })
        return `Wrote ${shown} (${content.length} characters).`
      }
      case 'str_replace': {
        const oldStr = text(args.old_str, 'old_str', 'str_replace')
        const newStr = text(args.new_str ?? '', 'new_str', 'str_replace')
        if (!oldStr) throw new Error('str_replace needs a non-empty old_str: the exact text to replace.')
        const content = await readMemoryFile(target, shown, signal)
        const count = content.split(oldStr).length - 1
        if (count === 0) throw new Error(`old_str does not occur in ${shown}: view the file and copy the text exactly.`)
        if (count > 1) throw new Error(`old_str occurs ${count} times in ${shown}: include more surrounding text so that it occurs once.`)
        await writeFile(target, content.replace(oldStr, () => newStr), { encoding: 'utf8', signal })
        return `Edited ${shown}.`
      }
      case 'insert': {
        const insertText = text(args.insert_text, 'insert_text', 'insert')
        const content = await readMemoryFile(target, shown, signal)
        const lines = content.split('\n')
        const at = Number(args.insert_line)
        if (!Number.isInteger(at) || at < 0 || at > lines.length) throw new Error(`insert_line must be an integer from 0 to ${lines.length} for ${shown}.`)
        lines.splice(at, 0, ...insertText.split('\n'))
        await writeFile(target, lines.join('\n'), { encoding: 'utf8', signal })
        return `Inserted ${insertText.split('\n').length} line(s) into ${shown} after line ${at}.`
      }
      case 'delete': {
        if (target === memoryRoot(context)) throw new Error('delete refuses to remove memory/ itself: delete the files in it one by one.')
        if (!(await exists(target))) throw new Error(`${shown} does not exist: view "memory" to list the memory files.`)
        await rm(target, { recursive: true })
        return `Deleted ${shown}.`
      }
      default: {
        const destination = await resolveMemoryPath(context, args.new_path, 'new_path')
        if (await exists(destination)) throw new Error(`${display(context, destination)} already exists: pick another new_path or delete it first.`)
        await mkdir(path.dirname(destination), { recursive: true })
        await rename(target, destination)
        return `Renamed ${shown} to ${display(context, destination)}.`
      }
    }
  },
}
