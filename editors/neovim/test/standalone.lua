-- lsp/beeuni.lua on its own, as nvim-lspconfig would ship it: copied alone
-- into a config's lsp/ folder, without the plugin (no lua/beeuni, no
-- ftdetect), against the real server (Neovim 0.11+):
--   BEEUNI_LSP=/path/to/beeuni-lsp nvim --headless -u NONE -i NONE -n -c 'luafile editors/neovim/test/standalone.lua'
-- The client attaches, the buffer-local :LspBeeuniEject and :LspBeeuniTools
-- work through client:exec_cmd(), and a failing command says why.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/helpers.lua')
H.stop_on_failure = true

local server = os.getenv('BEEUNI_LSP')
if not server or server == '' or vim.fn.executable(server) ~= 1 then
  io.stdout:write('BEEUNI_LSP must name the beeuni-lsp binary (got ' .. tostring(server) .. ')\n')
  vim.cmd('cquit 1')
end

-- Not the plugin: only a config folder holding a copy of lsp/beeuni.lua.
vim.opt.runtimepath:remove(H.plugin_dir)
local config_dir = vim.fn.resolve(vim.fn.tempname())
vim.fn.mkdir(config_dir .. '/lsp', 'p')
vim.fn.writefile(vim.fn.readfile(H.plugin_dir .. '/lsp/beeuni.lua', 'b'), config_dir .. '/lsp/beeuni.lua', 'b')
vim.opt.runtimepath:prepend(config_dir)

local project = H.copy_fixture('project')
local manifest = project .. '/beeuni.yaml'
local bufnr, client

-- What vim.notify was given (the commands' messages).
local notes = {}
vim.notify = function(msg, level)
  table.insert(notes, { msg = msg, level = level or vim.log.levels.INFO })
end
local function note_matching(pattern)
  for _, n in ipairs(notes) do
    if n.msg:find(pattern) then
      return n
    end
  end
end

local function disk_line(n)
  local s = H.read_file(manifest)
  return s and H.lines(s)[n]
end

H.run({
  { 'the nvim-lspconfig doc block opens the file', function()
    local lines = vim.fn.readfile(config_dir .. '/lsp/beeuni.lua', '', 3)
    H.eq({ '---@brief', '---', '--- https://github.com/beeuni/beeuni-lsp' }, lines, 'first lines')
    H.eq(false, pcall(require, 'beeuni'), 'the plugin is not loadable')
  end },

  { 'the client attaches to beeuni.yaml (filetype yaml, no plugin)', function()
    vim.cmd('filetype on')
    vim.lsp.config('beeuni', { cmd = { server, 'serve' } })
    vim.lsp.enable('beeuni')
    vim.cmd('edit ' .. manifest)
    bufnr = vim.api.nvim_get_current_buf()
    H.eq('yaml', vim.bo[bufnr].filetype, 'filetype')
    client = H.wait_for(10000, function()
      local c = vim.lsp.get_clients({ bufnr = bufnr, name = 'beeuni' })[1]
      return c and c.initialized and c
    end, 'the beeuni client to attach')
    H.eq(project, client.root_dir, 'root_dir')
    local cmds = vim.api.nvim_buf_get_commands(bufnr, {})
    H.truthy(cmds.LspBeeuniEject and cmds.LspBeeuniTools, 'buffer-local commands: ' .. vim.inspect(vim.tbl_keys(cmds)))
    H.eq(nil, cmds.BeeuniEject, 'no plugin command')
  end },

  { ':LspBeeuniEject memory writes tools/memory.ts and rewrites the line', function()
    vim.cmd('LspBeeuniEject memory')
    local ok = vim.wait(10000, function()
      vim.cmd('silent! wall')
      local module = H.read_file(project .. '/tools/memory.ts')
      return module and module:find('export default', 1, true) and (disk_line(5) or ''):match('^  memory: tools/memory%.ts +# ejected from beeuni:memory$') and true
    end, 20)
    H.truthy(ok, 'tools/memory.ts and line 5 (now ' .. vim.inspect(disk_line(5)) .. ')')
    H.truthy(H.wait_for(5000, function() return note_matching('^beeuni%-lsp: ejected memory') end, 'the message'))
  end },

  { ':LspBeeuniEject with no name offers the ejectable tools', function()
    vim.api.nvim_set_current_buf(bufnr)
    local offered
    vim.ui.select = function(items, _, on_choice)
      offered = items
      on_choice('show')
    end
    vim.cmd('LspBeeuniEject')
    H.wait_for(5000, function() return offered end, 'vim.ui.select')
    H.truthy(vim.tbl_contains(offered, 'image_search') and not vim.tbl_contains(offered, 'memory'), 'offered: ' .. vim.inspect(offered))
    H.wait_for(10000, function()
      vim.cmd('silent! wall')
      return H.read_file(project .. '/tools/show.ts')
    end, 'tools/show.ts')
  end },

  { 'a failing eject says why', function()
    vim.api.nvim_set_current_buf(bufnr)
    vim.cmd('LspBeeuniEject no_such_tool')
    local n = H.wait_for(5000, function() return note_matching('^beeuni%-lsp: eject no_such_tool: ') end, 'an error message')
    H.eq(vim.log.levels.ERROR, n.level, 'level')
  end },

  { ':LspBeeuniTools shows the tools ls table in a floating window', function()
    vim.api.nvim_set_current_buf(bufnr)
    vim.cmd('LspBeeuniTools')
    local win = H.wait_for(10000, function()
      for _, w in ipairs(vim.api.nvim_list_wins()) do
        if vim.api.nvim_win_get_config(w).relative ~= '' then
          return w
        end
      end
    end, 'a floating window')
    local text = table.concat(vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(win), 0, -1, false), '\n')
    H.truthy(text:match('NAME%s+KIND%s+SOURCE'), 'header in ' .. text)
    H.truthy(text:match('memory%s+beeuni %(overridden%)%s+tools/memory%.ts'), 'memory row in ' .. text)
    -- web_search (beeuni:web_serch, T3) does not load: the agent does not get it.
    H.truthy(text:match('\nAGENT TOOLS\nsupport: read, lookup_order$'), 'support agent in ' .. text)
  end },
})
