// Shapes the search API's answer the way the web UI's web_search view reads it.
export function formatResults(data: { results?: Array<{ title: string; url: string; snippet?: string }> }) {
  return {
    results: (data.results ?? []).map((r) => ({ title: r.title, url: r.url, snippet: r.snippet ?? '' })),
  }
}
