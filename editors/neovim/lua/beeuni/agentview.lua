-- What an agent's model sees: :BeeuniAgentTools [agent] and the code
-- lens's command beeuni.showAgentTools fill a scratch buffer with the
-- server's answer to beeuni.agentTools (the text of
-- `beeuni-lsp tools ls --agent NAME`). Running either again refills it.
local M = {}

local function notify(msg, level)
  vim.notify('beeuni: ' .. msg, level or vim.log.levels.INFO)
end

--- The agents of the buffer's project (synchronous; for completion and
--- the choice when no agent is named).
function M.agent_names(bufnr)
  local beeuni = require('beeuni')
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local client = beeuni.client_for(bufnr)
  if not client then
    return {}
  end
  local params = { command = 'beeuni.sessionTools', arguments = { { uri = beeuni.project_uri(client, bufnr) } } }
  local resp = beeuni.request_sync(client, 'workspace/executeCommand', params, 3000, bufnr)
  local out = {}
  if resp and not resp.err and type(resp.result) == 'table' then
    for _, a in ipairs(resp.result.agents or {}) do
      table.insert(out, a.name)
    end
  end
  return out
end

--- The scratch buffer of agent name, made on first use.
local function scratch(name)
  local bufname = 'beeuni://agent/' .. name
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_valid(buf) and vim.api.nvim_buf_get_name(buf) == bufname then
      return buf
    end
  end
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_name(buf, bufname)
  vim.bo[buf].buftype = 'nofile'
  vim.bo[buf].bufhidden = 'hide'
  vim.bo[buf].swapfile = false
  vim.bo[buf].filetype = 'beeuniagent'
  return buf
end

--- Fills the scratch buffer of the agent with lines and shows it: in its
--- window when one shows it, else in a new split.
local function fill(name, lines)
  local buf = scratch(name)
  vim.bo[buf].modifiable = true
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  local win = vim.fn.bufwinid(buf)
  if win == -1 then
    vim.cmd('botright split')
    vim.api.nvim_win_set_buf(0, buf)
  else
    vim.api.nvim_set_current_win(win)
  end
  return buf
end

--- Shows what agent name's model sees (nil or '': choose among the
--- project's agents). uri is any file of the project (default: the
--- buffer's). done(buf) is called with the scratch buffer, or nil.
function M.show(bufnr, name, uri, done)
  local beeuni = require('beeuni')
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local client = beeuni.client_for(bufnr)
  if not client then
    notify('no beeuni-lsp client is running (open a file under a folder holding beeuni.yaml)', vim.log.levels.ERROR)
    if done then
      done(nil)
    end
    return
  end
  if name == nil or name == '' then
    local names = M.agent_names(bufnr)
    if #names == 0 then
      notify('this project declares no agents', vim.log.levels.WARN)
      if done then
        done(nil)
      end
      return
    end
    vim.ui.select(names, { prompt = "Show what which agent's model sees?" }, function(choice)
      if choice then
        M.show(bufnr, choice, uri, done)
      elseif done then
        done(nil)
      end
    end)
    return
  end
  local args = { uri = uri or beeuni.project_uri(client, bufnr), name = name }
  beeuni.execute(client, bufnr, 'beeuni.agentTools', args, function(err, result)
    if err or type(result) ~= 'table' or type(result.text) ~= 'string' then
      notify('agent ' .. name .. ': ' .. (err and err.message or 'no result'), vim.log.levels.ERROR)
      if done then
        done(nil)
      end
      return
    end
    local lines = vim.split(result.text, '\n', { plain = true })
    if lines[#lines] == '' then
      table.remove(lines)
    end
    local buf = fill(name, lines)
    if done then
      done(buf)
    end
  end)
end

--- The client-side command of the server's code lens on an agent
--- (arguments { uri, name }), for vim.lsp.commands.
function M.lens_command(command, ctx)
  local arg = command.arguments and command.arguments[1] or {}
  M.show(ctx.bufnr, arg.name, arg.uri)
end

return M
