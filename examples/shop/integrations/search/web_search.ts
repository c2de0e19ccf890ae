// integrations/search/web_search.ts: the shop's copy of Beeuni's web_search.
// It keeps the name, the `query` argument (several queries joined by |||)
// and the output shape, so the web UI view and skills keep working; it
// restricts every query to the shop's documentation site.
import { formatResults } from './format.ts'

export default {
  description: 'Search the shop documentation. Several queries may be joined with |||.',
  parameters: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'What to search for; join several queries with |||' },
    },
    required: ['query'],
  },
  async execute(args, context) {
    const queries = String(args.query ?? '').split('|||').map((query) => query.trim()).filter(Boolean)
      .map((query) => `site:docs.shop.example.com ${query}`)
    if (queries.length === 0) throw new Error('query is empty: pass what to search for')
    const response = await fetch(`${context.env.BEEUNI_API_URL}/v1/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${context.env.BEEUNI_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ queries }),
      signal: context.signal,
    })
    if (!response.ok) throw new Error(`search API answered ${response.status}`)
    return formatResults(await response.json())
  },
}
