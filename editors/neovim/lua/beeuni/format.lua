-- Pure formatting helpers (no editor state), unit-tested headless.
local M = {}

local function tool_name(tool)
  if type(tool) == 'table' then
    return tool.name or vim.inspect(tool)
  end
  return tostring(tool)
end

--- Lines for the result of the server command beeuni.sessionTools:
--- the `tools ls` table, then one line per agent with the tools it sees.
function M.session_tools(result)
  local lines = {}
  local text = result.table or ''
  text = text:gsub('\n+$', '')
  if text ~= '' then
    for line in (text .. '\n'):gmatch('(.-)\n') do
      table.insert(lines, line)
    end
  end
  local agents = result.agents
  if type(agents) == 'table' and #agents > 0 then
    table.insert(lines, '')
    table.insert(lines, 'AGENT TOOLS')
    local width = 0
    for _, agent in ipairs(agents) do
      width = math.max(width, #tostring(agent.name))
    end
    for _, agent in ipairs(agents) do
      local names = {}
      for _, tool in ipairs(type(agent.tools) == 'table' and agent.tools or {}) do
        table.insert(names, tool_name(tool))
      end
      local list = #names > 0 and table.concat(names, ', ') or '(none)'
      local name = tostring(agent.name)
      table.insert(lines, name .. string.rep(' ', width - #name + 2) .. list)
    end
  end
  if #lines == 0 then
    lines = { '(no tools)' }
  end
  return lines
end

return M
