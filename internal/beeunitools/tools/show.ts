// show: the Beeuni tool, as Beeuni maintains it (beeuni-lsp tools eject wrote
// this copy). Keep the name and the `type`, `path`, `url`, `content` and
// `items` arguments: the web UI's show view reads them from the call and
// renders the file, image, page, Markdown or list to the user.

import { stat } from 'node:fs/promises'
import path from 'node:path'

type ToolContext = {
  sessionId?: string
  agent?: string
  directory?: string
  env: Record<string, string | undefined>
  signal?: AbortSignal
}

type ShowArgs = { type?: unknown; path?: unknown; url?: unknown; content?: unknown; items?: unknown }

const TYPES = ['file', 'image', 'url', 'markdown', 'list']

async function projectFile(context: ToolContext, value: unknown): Promise<string> {
  const raw = String(value ?? '').trim()
  if (!raw) throw new Error('path is empty: pass a file of the project, e.g. "reports/summary.md".')
  const directory = path.resolve(context.directory || process.cwd())
  const target = path.resolve(directory, raw)
  if (target !== directory && !target.startsWith(directory + path.sep)) {
    throw new Error(`path "${raw}" is outside the project: pass a path relative to ${directory}.`)
  }
  let info
  try {
    info = await stat(target)
  } catch {
    throw new Error(`path "${raw}" does not exist: write the file first, then show it.`)
  }
  if (!info.isFile()) throw new Error(`path "${raw}" is not a file: show one file at a time.`)
  return path.relative(directory, target).split(path.sep).join('/')
}

function webURL(value: unknown): string {
  let url: URL
  try {
    url = new URL(String(value ?? ''))
  } catch {
    throw new Error(`url must be an absolute http or https URL, not ${JSON.stringify(value)}.`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`url must use http or https, not ${url.protocol.replace(/:$/, '')}.`)
  return url.href
}

export default {
  description:
    'Show something to the user in the web UI: a file or an image of the project, a web page, Markdown, or a list of links. Use it to present a result; the user sees it next to the conversation.',
  parameters: {
    type: 'object',
    properties: {
      type: { type: 'string', enum: ['file', 'image', 'url', 'markdown', 'list'], description: 'What to show: file (path), image (path or url), url (url), markdown (content) or list (items).' },
      path: { type: 'string', description: 'file, image: a file of the project, relative to its root, e.g. "reports/summary.md".' },
      url: { type: 'string', description: 'url, image: an absolute http or https URL.' },
      content: { type: 'string', description: 'markdown: the Markdown to show.' },
      items: {
        type: 'array',
        description: 'list: the entries to show, each with a title and a path or url.',
        items: {
          type: 'object',
          properties: {
            title: { type: 'string', description: 'The entry as the user reads it.' },
            path: { type: 'string', description: 'A file of the project.' },
            url: { type: 'string', description: 'An absolute http or https URL.' },
          },
          required: ['title'],
        },
      },
    },
    required: ['type'],
  },
  async execute(args: ShowArgs, context: ToolContext) {
    context.signal?.throwIfAborted()
    const type = String(args.type ?? '')
    switch (type) {
      case 'file':
        return `Showing ${await projectFile(context, args.path)} to the user.`
      case 'image':
        if (args.url !== undefined && args.path === undefined) return `Showing the image ${webURL(args.url)} to the user.`
        return `Showing the image ${await projectFile(context, args.path)} to the user.`
      case 'url':
        return `Showing ${webURL(args.url)} to the user.`
      case 'markdown': {
        if (typeof args.content !== 'string' || args.content.trim() === '') throw new Error('markdown needs content: the Markdown text to show.')
        return `Showing ${args.content.length} characters of Markdown to the user.`
      }
      case 'list': {
        if (!Array.isArray(args.items) || args.items.length === 0) throw new Error('list needs items: a non-empty array of { title, path or url }.')
        for (const [i, item] of args.items.entries()) {
          context.signal?.throwIfAborted()
          if (!item || typeof item.title !== 'string' || item.title === '') throw new Error(`items[${i}] needs a title.`)
          if (item.path !== undefined) await projectFile(context, item.path)
          else if (item.url !== undefined) webURL(item.url)
          else throw new Error(`items[${i}] needs a path or a url.`)
        }
        return `Showing a list of ${args.items.length} item(s) to the user.`
      }
    }
    throw new Error(`type must be one of ${TYPES.join(', ')}, not ${JSON.stringify(args.type)}.`)
  },
}
