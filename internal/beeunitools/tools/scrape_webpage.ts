// scrape_webpage: the Beeuni tool, as Beeuni maintains it (beeuni-lsp tools
// eject wrote this copy). Keep the name, the `url` argument and the output
// shape: the web UI's scrape_webpage view reads the output.
//
// Output: { "url": string, "title": string, "content": string (Markdown),
//   "truncated": boolean, "length": number (characters before truncation) }

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

export default {
  description: 'Fetch a web page and return its main content as Markdown, with its title. Long pages are cut at max_chars.',
  parameters: {
    type: 'object',
    properties: {
      url: { type: 'string', description: 'The page to fetch, an absolute http or https URL, e.g. "https://example.com/pricing".' },
      max_chars: { type: 'integer', description: 'Cut the content after this many characters, 1000 to 100000 (default 20000).' },
    },
    required: ['url'],
  },
  async execute(args: { url?: unknown; max_chars?: unknown }, context: ToolContext) {
    let target: URL
    try {
      target = new URL(String(args.url ?? ''))
    } catch {
      throw new Error(`url must be an absolute http or https URL, e.g. "https://example.com/pricing", not ${JSON.stringify(args.url)}.`)
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:') {
      throw new Error(`url must use http or https, not ${target.protocol.replace(/:$/, '')}.`)
    }
    const maxChars = args.max_chars === undefined ? 20000 : Number(args.max_chars)
    if (!Number.isInteger(maxChars) || maxChars < 1000 || maxChars > 100000) {
      throw new Error(`max_chars must be an integer from 1000 to 100000, not ${JSON.stringify(args.max_chars)}.`)
    }
    const api = beeuniApi(context)
    const headers: Record<string, string> = {
      authorization: `Bearer ${api.token}`,
      'content-type': 'application/json',
    }
    // A project's own scraping provider key, when it has one, is used instead of Beeuni's.
    if (context.env.FIRECRAWL_API_KEY) headers['x-provider-key'] = context.env.FIRECRAWL_API_KEY
    const response = await fetch(`${api.url}/v1/scrape`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: target.href }),
      signal: context.signal,
    })
    if (!response.ok) {
      throw new Error(`Beeuni scrape API answered ${response.status} for ${target.href}: ${(await response.text()).slice(0, 500)}`)
    }
    const data: any = await response.json()
    const content = String(data?.markdown ?? data?.content ?? '')
    return {
      url: String(data?.url ?? target.href),
      title: String(data?.title ?? ''),
      content: content.slice(0, maxChars),
      truncated: content.length > maxChars,
      length: content.length,
    }
  },
}
