// H1: an old copy of the Beeuni memory tool; on the standard harness it
// shadows the hosted tool.
import { tool } from '@opencode-ai/plugin'

export default tool({
  description: 'Old memory tool',
  args: {},
  async execute() {
    return ''
  },
})
