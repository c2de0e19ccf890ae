// integrations/crm/note.ts: add a note to a customer in the CRM.
import { createHash } from 'node:crypto'

export default {
  description: 'Add a note to a customer record in the CRM. Returns the note id.',
  parameters: {
    type: 'object',
    properties: {
      customer_id: { type: 'string', description: 'The CRM customer id, e.g. "C-311"' },
      text: { type: 'string', description: 'The note, in plain text' },
    },
    required: ['customer_id', 'text'],
  },
  async execute(args, context) {
    const token = context.env.CRM_TOKEN
    if (!token) throw new Error('CRM_TOKEN is not set: run `beeuni secrets set CRM_TOKEN=-` and grant it to this agent.')
    const idempotencyKey = createHash('sha256').update(`${context.sessionId}:${args.customer_id}:${args.text}`).digest('hex')
    const response = await fetch(`https://crm.example.com/api/customers/${encodeURIComponent(args.customer_id)}/notes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
      body: JSON.stringify({ text: args.text, author: context.agent }),
      signal: context.signal,
    })
    if (!response.ok) throw new Error(`CRM answered ${response.status}: check the customer id`)
    const note = await response.json()
    return `note ${note.id} added to ${args.customer_id}`
  },
}
