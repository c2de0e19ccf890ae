// H2: runs only on the standard harness.
import { tool } from '@opencode-ai/plugin'

export default tool({
  description: 'Stock level of a product',
  args: {},
  async execute() {
    return '3 left'
  },
})
