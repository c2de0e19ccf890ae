// image_search: the Beeuni tool, as Beeuni maintains it (beeuni-lsp tools
// eject wrote this copy). Keep the name, the `query` argument and the output
// shape: the web UI's image_search view reads the output.
//
// Output: { "query": string, "images": [ { "title": string, "url": string,
//   "thumbnail_url": string, "source_url": string, "width": number | null,
//   "height": number | null } ] }

type ToolContext = {
  sessionId?: string
  agent?: string
  directory?: string
  env: Record<string, string | undefined>
  signal?: AbortSignal
}

function beeuniApi(context: ToolContext): { url: string; token: string } {
  const url = context.env.BEEUNI_API_URL
  const token = context.env.BEEUNI_TOKEN
  if (!url) throw new Error('BEEUNI_API_URL is not set: the sandbox sets it; when running this module elsewhere, set BEEUNI_API_URL to the Beeuni API base URL.')
  if (!token) throw new Error('BEEUNI_TOKEN is not set: the sandbox sets it; when running this module elsewhere, set BEEUNI_TOKEN to a Beeuni API token.')
  return { url: url.replace(/\/+$/, ''), token }
}

function dimension(value: unknown): number | null {
  const n = Number(value)
  return Number.isFinite(n) && n > 0 ? Math.round(n) : null
}

export default {
  description: 'Search the web for images. Returns image URLs with a thumbnail, the page each image is on and its size.',
  parameters: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'What the images should show, e.g. "red panda in snow".' },
      count: { type: 'integer', description: 'How many images, 1 to 30 (default 10).' },
    },
    required: ['query'],
  },
  async execute(args: { query?: unknown; count?: unknown }, context: ToolContext) {
    const query = String(args.query ?? '').trim()
    if (!query) throw new Error('query is empty: describe the images to find, e.g. { "query": "red panda in snow" }.')
    const count = args.count === undefined ? 10 : Number(args.count)
    if (!Number.isInteger(count) || count < 1 || count > 30) throw new Error(`count must be an integer from 1 to 30, not ${JSON.stringify(args.count)}.`)
    const api = beeuniApi(context)
    const headers: Record<string, string> = {
      authorization: `Bearer ${api.token}`,
      'content-type': 'application/json',
    }
    // A project's own search provider key, when it has one, is used instead of Beeuni's.
    if (context.env.BRAVE_SEARCH_API_KEY) headers['x-provider-key'] = context.env.BRAVE_SEARCH_API_KEY
    const response = await fetch(`${api.url}/v1/search/images`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ query, count }),
      signal: context.signal,
    })
    if (!response.ok) {
      throw new Error(`Beeuni image search API answered ${response.status}: ${(await response.text()).slice(0, 500)}`)
    }
    const data: any = await response.json()
    const raw = Array.isArray(data?.results) ? data.results.slice(0, count) : []
    const images = raw.map((image: any) => ({
      title: String(image?.title ?? ''),
      url: String(image?.url ?? ''),
      thumbnail_url: String(image?.thumbnail_url ?? image?.url ?? ''),
      source_url: String(image?.source_url ?? ''),
      width: dimension(image?.width),
      height: dimension(image?.height),
    }))
    return { query, images }
  },
}
