// web_search: the Beeuni tool, as Beeuni maintains it (beeuni-lsp tools eject
// wrote this copy). Keep the name, the `query` argument and the output shape:
// the web UI's web_search view and the skills that name the tool read them.
//
// Output: { "results": [ { "query": string, "items": [ { "title": string,
//   "url": string, "snippet": string, "published": string | null } ] } ] }
// one entry per query, in the order the queries were given.

type ToolContext = {
  sessionId?: string
  agent?: string
  directory?: string
  env: Record<string, string | undefined>
  signal?: AbortSignal
}

type SearchItem = { title: string; url: string; snippet: string; published: string | null }

const MAX_QUERIES = 5

function beeuniApi(context: ToolContext): { url: string; token: string } {
  const url = context.env.BEEUNI_API_URL
  const token = context.env.BEEUNI_TOKEN
  if (!url) throw new Error('BEEUNI_API_URL is not set: the sandbox sets it; when running this module elsewhere, set BEEUNI_API_URL to the Beeuni API base URL.')
  if (!token) throw new Error('BEEUNI_TOKEN is not set: the sandbox sets it; when running this module elsewhere, set BEEUNI_TOKEN to a Beeuni API token.')
  return { url: url.replace(/\/+$/, ''), token }
}

function toItem(raw: any): SearchItem {
  return {
    title: String(raw?.title ?? ''),
    url: String(raw?.url ?? ''),
    snippet: String(raw?.snippet ?? raw?.description ?? ''),
    published: raw?.published == null ? null : String(raw.published),
  }
}

export default {
  description:
    'Search the web. Returns, for each query, the top results with title, URL and a snippet. Run several searches in one call by joining queries with "|||".',
  parameters: {
    type: 'object',
    properties: {
      query: {
        type: 'string',
        description: 'What to search for. Several queries are joined with "|||", e.g. "bun release notes|||deno release notes".',
      },
      count: {
        type: 'integer',
        description: 'Results per query, 1 to 20 (default 8).',
      },
    },
    required: ['query'],
  },
  async execute(args: { query?: unknown; count?: unknown }, context: ToolContext) {
    const queries = String(args.query ?? '').split('|||').map((query) => query.trim()).filter(Boolean)
    if (queries.length === 0) throw new Error('query is empty: pass the words to search for, e.g. { "query": "bun release notes" }.')
    if (queries.length > MAX_QUERIES) throw new Error(`${queries.length} queries in one call: pass at most ${MAX_QUERIES}, joined with "|||", and call again for the rest.`)
    const count = args.count === undefined ? 8 : Number(args.count)
    if (!Number.isInteger(count) || count < 1 || count > 20) throw new Error(`count must be an integer from 1 to 20, not ${JSON.stringify(args.count)}.`)
    const api = beeuniApi(context)
    const headers: Record<string, string> = {
      authorization: `Bearer ${api.token}`,
      'content-type': 'application/json',
    }
    // A project's own search provider key, when it has one, is used instead of Beeuni's.
    if (context.env.BRAVE_SEARCH_API_KEY) headers['x-provider-key'] = context.env.BRAVE_SEARCH_API_KEY
    const results = []
    for (const query of queries) {
      const response = await fetch(`${api.url}/v1/search/web`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ query, count }),
        signal: context.signal,
      })
      if (!response.ok) {
        throw new Error(`Beeuni search API answered ${response.status} for "${query}": ${(await response.text()).slice(0, 500)}`)
      }
      const data: any = await response.json()
      const items = Array.isArray(data?.results) ? data.results.slice(0, count).map(toItem) : []
      results.push({ query, items })
    }
    return { results }
  },
}
