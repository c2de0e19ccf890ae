-- beeuni-lsp client for Neovim.
--
--   Neovim 0.11+: vim.lsp.enable('beeuni') (lsp/beeuni.lua), or require('beeuni').setup({...})
--   Neovim 0.8 to 0.10: require('beeuni').setup({...}) starts clients with vim.lsp.start
--   Neovim 0.7: require('beeuni').setup({...}) starts clients with vim.lsp.start_client
--
-- Commands :BeeuniEject[!] [name], :BeeuniTools, :BeeuniAgentTools [agent]: buffer-local, created on attach
-- (0.11+); global, defined by plugin/beeuni.lua and setup (0.7 to 0.10).
-- ftdetect/beeuni.lua gives beeuni.yaml the filetype yaml.beeuni.
local M = {}

local uv = vim.uv or vim.loop

M.name = 'beeuni'
M.filetypes = { 'yaml.beeuni', 'yaml', 'typescript', 'javascript' }

local defaults = {
  cmd = { 'beeuni-lsp', 'serve' },
  filetypes = M.filetypes,
  -- The server's own settings, sent as initializationOptions and answered
  -- to workspace/configuration (section "beeuni").
  settings = { inspectModules = true },
  on_attach = nil,
  on_init = nil,
  capabilities = nil,
}

M.options = vim.deepcopy(defaults)

local function has(feature)
  return vim.fn.has(feature) == 1
end

--- The nearest ancestor folder of path (or path itself, when a folder)
--- holding beeuni.yaml, or nil.
function M.find_root(path)
  if path == nil or path == '' then
    return nil
  end
  path = vim.fn.fnamemodify(path, ':p')
  local dir = path
  local stat = uv.fs_stat(dir)
  if not stat or stat.type ~= 'directory' then
    dir = vim.fn.fnamemodify(path, ':h')
  end
  dir = dir:gsub('/+$', '')
  if dir == '' then
    dir = '/'
  end
  while true do
    local candidate = (dir == '/' and '' or dir) .. '/beeuni.yaml'
    if uv.fs_stat(candidate) then
      return dir
    end
    local parent = vim.fn.fnamemodify(dir, ':h')
    if parent == dir then
      return nil
    end
    dir = parent
  end
end

--- The project root of a file the server has something to say about: a
--- beeuni.yaml anywhere, or a file in a folder tree holding beeuni.yaml,
--- unless it lies in a hidden folder (.github/workflows) or node_modules
--- below that root. nil otherwise.
function M.served_root(path)
  local root = M.find_root(path)
  if not root or vim.fn.fnamemodify(path, ':t') == 'beeuni.yaml' then
    return root
  end
  local rel = vim.fn.fnamemodify(path, ':p'):sub(#root + 2)
  for part in vim.fn.fnamemodify(rel, ':h'):gmatch('[^/]+') do
    if part == 'node_modules' or (part:sub(1, 1) == '.' and part ~= '.') then
      return nil
    end
  end
  return root
end

-- Method-call syntax (client:request) arrived in 0.11 and the dot form is
-- deprecated there; older releases only have the dot form.
local function client_request(client, method, params, handler, bufnr)
  if has('nvim-0.11') then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

local function client_request_sync(client, method, params, timeout_ms, bufnr)
  if has('nvim-0.11') then
    return client:request_sync(method, params, timeout_ms, bufnr)
  end
  return client.request_sync(method, params, timeout_ms, bufnr)
end
M.request_sync = client_request_sync

local function all_clients(filter)
  if vim.lsp.get_clients then
    return vim.lsp.get_clients(filter)
  end
  local out = {}
  for _, client in pairs(vim.lsp.get_active_clients()) do
    if (filter.name == nil or client.name == filter.name)
      and (filter.bufnr == nil or vim.lsp.buf_is_attached(filter.bufnr, client.id)) then
      table.insert(out, client)
    end
  end
  return out
end

--- The beeuni client for a buffer: the one attached to it, else the one
--- whose project holds the buffer's file, else any running beeuni client.
function M.client_for(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local attached = all_clients({ name = M.name, bufnr = bufnr })
  if attached[1] then
    return attached[1]
  end
  local clients = all_clients({ name = M.name })
  local root = M.find_root(vim.api.nvim_buf_get_name(bufnr))
  for _, client in ipairs(clients) do
    if root and client.config.root_dir == root then
      return client
    end
  end
  return clients[1]
end

--- A file URI of the project the command is about: the buffer's file when
--- the client is attached to it, else the client's beeuni.yaml.
local function project_uri(client, bufnr)
  if vim.lsp.buf_is_attached(bufnr, client.id) then
    return vim.uri_from_bufnr(bufnr)
  end
  return vim.uri_from_fname(client.config.root_dir .. '/beeuni.yaml')
end
M.project_uri = project_uri

local function notify(msg, level)
  vim.notify('beeuni: ' .. msg, level or vim.log.levels.INFO)
end

local function no_client()
  notify('no beeuni-lsp client is running (open a file under a folder holding beeuni.yaml)', vim.log.levels.ERROR)
end

--- Runs a server command (client:exec_cmd() on 0.11+, else
--- workspace/executeCommand); calls done(err, result).
function M.execute(client, bufnr, command, args, done)
  local function handler(err, result)
    if done then
      done(err, result)
    end
  end
  if has('nvim-0.11') then
    return client:exec_cmd({ title = command, command = command, arguments = { args } }, { bufnr = bufnr }, handler)
  end
  client_request(client, 'workspace/executeCommand', { command = command, arguments = { args } }, handler, bufnr)
end

--- Applies a code action of the server: its edit with the client's offset
--- encoding (Neovim 0.7 requires it), then its command through
--- workspace/executeCommand. done(err) is called when the command answered.
function M.apply_action(client, bufnr, action, done)
  if action.edit then
    vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding)
  end
  local command = action.command
  if type(command) == 'table' and type(command.command) == 'string' then
    client_request(client, 'workspace/executeCommand', { command = command.command, arguments = command.arguments }, function(err)
      if err then
        notify(command.command .. ': ' .. (err.message or tostring(err)), vim.log.levels.ERROR)
      end
      if done then
        done(err)
      end
    end, bufnr)
  elseif done then
    done(nil)
  end
end

--- The Beeuni tools this project can eject now (synchronous; for completion).
function M.ejectable_tools(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local client = M.client_for(bufnr)
  if not client then
    return {}
  end
  local params = { command = 'beeuni.ejectableTools', arguments = { { uri = project_uri(client, bufnr) } } }
  local resp = client_request_sync(client, 'workspace/executeCommand', params, 3000, bufnr)
  if not resp or resp.err or type(resp.result) ~= 'table' then
    return {}
  end
  return resp.result
end

--- Ejects the Beeuni tool `name` (nil: choose from the ejectable ones).
--- The server applies the edit through workspace/applyEdit and shows the new file.
function M.eject(name, force, bufnr, done)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local client = M.client_for(bufnr)
  if not client then
    return no_client()
  end
  local function run(tool)
    local args = { uri = project_uri(client, bufnr), name = tool, force = force and true or false }
    M.execute(client, bufnr, 'beeuni.eject', args, function(err)
      if err then
        notify('eject ' .. tool .. ': ' .. (err.message or tostring(err)), vim.log.levels.ERROR)
      else
        notify('ejected ' .. tool .. ' into tools/' .. tool .. '.ts')
      end
      if done then
        done(err)
      end
    end)
  end
  if name and name ~= '' then
    return run(name)
  end
  local names = M.ejectable_tools(bufnr)
  if #names == 0 then
    return notify('no Beeuni tool can be ejected in this project', vim.log.levels.WARN)
  end
  vim.ui.select(names, { prompt = 'Eject which Beeuni tool?' }, function(choice)
    if choice then
      run(choice)
    end
  end)
end

--- Shows the `tools ls` table and each agent's tools in a floating window.
function M.show_tools(bufnr, done)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local client = M.client_for(bufnr)
  if not client then
    return no_client()
  end
  M.execute(client, bufnr, 'beeuni.sessionTools', { uri = project_uri(client, bufnr) }, function(err, result)
    if err or type(result) ~= 'table' then
      notify('session tools: ' .. (err and err.message or 'no result'), vim.log.levels.ERROR)
      if done then
        done(nil)
      end
      return
    end
    local win = M.open_float(require('beeuni.format').session_tools(result), 'Beeuni session tools')
    if done then
      done(win)
    end
  end)
end

--- Renames or moves the file of bufnr to new_path (a bare name: in the same
--- folder), first asking the server for the edits that keep every module
--- path and imports: entry pointing at it (workspace/willRenameFiles):
--- Neovim's own rename asks no server. The edited manifests are left
--- modified, for the user to look at and write. Calls done(err).
function M.rename_file(new_path, bufnr, done)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local function finish(err)
    if done then
      done(err)
    end
  end
  local old = vim.api.nvim_buf_get_name(bufnr)
  if old == '' then
    notify('this buffer has no file to rename', vim.log.levels.ERROR)
    return finish('no file')
  end
  if not new_path or new_path == '' then
    notify('usage: :BeeuniRename {new path}', vim.log.levels.ERROR)
    return finish('no new path')
  end
  local new
  if new_path:find('/', 1, true) then
    new = vim.fn.fnamemodify(new_path, ':p')
  else
    new = vim.fn.fnamemodify(old, ':h') .. '/' .. new_path
  end
  if uv.fs_stat(new) then
    notify(new .. ' exists already', vim.log.levels.ERROR)
    return finish('exists')
  end
  local client = M.client_for(bufnr)
  if not client then
    no_client()
    return finish('no client')
  end
  local params = { files = { { oldUri = vim.uri_from_fname(old), newUri = vim.uri_from_fname(new) } } }
  client_request(client, 'workspace/willRenameFiles', params, function(err, result)
    if err then
      notify('the server could not follow the rename (' .. (err.message or tostring(err)) .. '): nothing was renamed', vim.log.levels.ERROR)
      return finish(err)
    end
    local edited = 0
    if result then
      vim.lsp.util.apply_workspace_edit(result, client.offset_encoding or 'utf-16')
      for _, change in ipairs(result.documentChanges or {}) do
        if change.edits then
          edited = edited + 1
        end
      end
      for _ in pairs(result.changes or {}) do
        edited = edited + 1
      end
    end
    vim.fn.mkdir(vim.fn.fnamemodify(new, ':h'), 'p')
    vim.lsp.util.rename(old, new)
    if edited > 0 then
      notify(string.format('renamed; %d file(s) that name it were edited: :wall to save them', edited))
    else
      notify('renamed; no manifest names it')
    end
    finish(nil)
  end, bufnr)
end

--- Defines the global :BeeuniRename (idempotent), in every version: a
--- module file is renamed from its own buffer, to which the client does
--- not attach.
function M.create_rename_command()
  vim.api.nvim_create_user_command('BeeuniRename', function(opts)
    M.rename_file(opts.args)
  end, { nargs = 1, complete = 'file', desc = "Rename this buffer's file and update the paths beeuni.yaml names it by" })
end

--- Opens a centred floating window holding lines; `q` or <Esc> closes it.
--- Returns the window id.
function M.open_float(lines, title)
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  vim.bo[buf].bufhidden = 'wipe'
  vim.bo[buf].filetype = 'beeunitools'
  local width = 20
  for _, line in ipairs(lines) do
    width = math.max(width, vim.fn.strdisplaywidth(line))
  end
  width = math.min(width + 2, math.max(20, vim.o.columns - 4))
  local height = math.min(#lines, math.max(1, vim.o.lines - 6))
  local config = {
    relative = 'editor',
    width = width,
    height = height,
    row = math.max(0, math.floor((vim.o.lines - height) / 2) - 1),
    col = math.max(0, math.floor((vim.o.columns - width) / 2)),
    style = 'minimal',
    border = 'rounded',
  }
  if has('nvim-0.9') then
    config.title = ' ' .. title .. ' '
  end
  local win = vim.api.nvim_open_win(buf, true, config)
  for _, key in ipairs({ 'q', '<Esc>' }) do
    vim.api.nvim_buf_set_keymap(buf, 'n', key, '<cmd>close<cr>', { nowait = true, noremap = true, silent = true })
  end
  return win
end

local function define_commands(create, bufnr)
  create('BeeuniEject', function(opts)
    M.eject(opts.args, opts.bang, bufnr)
  end, {
    nargs = '?',
    bang = true,
    desc = 'Eject a Beeuni tool into tools/<name>.ts (! overwrites)',
    complete = function(arglead)
      local out = {}
      for _, name in ipairs(M.ejectable_tools(bufnr)) do
        if name:sub(1, #arglead) == arglead then
          table.insert(out, name)
        end
      end
      return out
    end,
  })
  create('BeeuniTools', function()
    M.show_tools(bufnr)
  end, { nargs = 0, desc = 'Show the tools a session of this project gets' })
  local agentview = require('beeuni.agentview')
  create('BeeuniAgentTools', function(opts)
    agentview.show(bufnr, opts.args)
  end, {
    nargs = '?',
    desc = "Show what an agent's model sees, in a scratch buffer",
    complete = function(arglead)
      return vim.tbl_filter(function(name)
        return name:sub(1, #arglead) == arglead
      end, agentview.agent_names(bufnr))
    end,
  })
  -- The command of the server's code lens on each agent.
  vim.lsp.commands['beeuni.showAgentTools'] = agentview.lens_command
end

--- Defines the global :BeeuniEject and :BeeuniTools (idempotent): the
--- 0.7 to 0.10 fallback; 0.11+ has buffer-local ones (buffer_commands).
function M.create_commands()
  if has('nvim-0.11') then
    return
  end
  define_commands(vim.api.nvim_create_user_command, nil)
end

--- Defines :BeeuniEject and :BeeuniTools for a buffer the client attached
--- to (lsp/beeuni.lua's on_attach, 0.11+).
function M.buffer_commands(_, bufnr)
  define_commands(function(name, fn, opts)
    vim.api.nvim_buf_create_user_command(bufnr, name, fn, opts)
  end, bufnr)
end

local server_info = {} -- client id -> initialize result's serverInfo

--- The server's name and version ({ name, version }) as it answered initialize.
function M.server_info(client)
  return client.server_info or server_info[client.id]
end

-- window/showDocument for releases without a handler (0.7): the server shows
-- an ejected tool's new file with it.
local function show_document(_, params, ctx)
  if params.external then
    return { success = false }
  end
  local target = vim.uri_to_bufnr(params.uri)
  vim.fn.bufload(target)
  vim.bo[target].buflisted = true
  if not pcall(vim.api.nvim_win_set_buf, 0, target) then
    vim.cmd('sbuffer ' .. target)
  end
  if params.selection then
    local client = vim.lsp.get_client_by_id(ctx.client_id)
    local pos = params.selection.start
    local line = vim.api.nvim_buf_get_lines(target, pos.line, pos.line + 1, false)[1] or ''
    local col = pos.character
    if client and client.offset_encoding ~= 'utf-8' then
      local ok, byte = pcall(vim.str_byteindex, line, pos.character, client.offset_encoding == 'utf-16')
      col = ok and byte or #line
    end
    pcall(vim.api.nvim_win_set_cursor, 0, { pos.line + 1, col })
  end
  return { success = true }
end

--- The client configuration for the project at root.
function M.client_config(root)
  local opts = M.options
  local capabilities = opts.capabilities or vim.lsp.protocol.make_client_capabilities()
  local handlers = {}
  if vim.lsp.handlers['window/showDocument'] == nil then
    handlers['window/showDocument'] = show_document
    capabilities = vim.tbl_deep_extend('force', capabilities, { window = { showDocument = { support = true } } })
  end
  local config = {
    name = M.name,
    cmd = opts.cmd,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
    init_options = opts.settings,
    settings = { beeuni = opts.settings },
    on_attach = opts.on_attach,
    on_init = function(client, result)
      server_info[client.id] = result and result.serverInfo
      if opts.on_init then
        opts.on_init(client, result)
      end
    end,
    capabilities = capabilities,
    handlers = handlers,
  }
  return config
end

local started = {} -- root -> client id (Neovim 0.7 only)

--- Attaches the beeuni client of the buffer's project to the buffer,
--- starting it when needed. Returns the client id, or nil outside a project.
function M.attach(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  if vim.bo[bufnr].buftype ~= '' then
    return nil
  end
  local root = M.served_root(vim.api.nvim_buf_get_name(bufnr))
  if not root then
    return nil
  end
  local config = M.client_config(root)
  if vim.lsp.start then
    -- 0.8+: reuses the client with the same name and root_dir.
    return vim.lsp.start(config, { bufnr = bufnr })
  end
  local id = started[root]
  if id == nil or vim.lsp.get_client_by_id(id) == nil then
    id = vim.lsp.start_client(config)
    started[root] = id
  end
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
  end
  return id
end

--- Configures and enables the client. Options: cmd, filetypes, settings
--- ({ inspectModules = bool }), on_attach, capabilities.
function M.setup(opts)
  M.options = vim.tbl_deep_extend('force', vim.deepcopy(defaults), opts or {})
  M.create_commands()
  if vim.lsp.config and vim.lsp.enable then
    -- 0.11+: lsp/beeuni.lua is the base; these options win, and the
    -- buffer-local commands (its on_attach) come before the user's.
    local user = M.options.on_attach
    vim.lsp.config(M.name, {
      cmd = M.options.cmd,
      filetypes = M.options.filetypes,
      init_options = M.options.settings,
      settings = { beeuni = M.options.settings },
      on_attach = function(client, bufnr)
        M.buffer_commands(client, bufnr)
        if user then
          user(client, bufnr)
        end
      end,
      capabilities = M.options.capabilities,
    })
    vim.lsp.enable(M.name)
    return
  end
  local group = vim.api.nvim_create_augroup('beeuni', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = M.options.filetypes,
    callback = function(args)
      M.attach(args.buf)
    end,
  })
  -- Buffers already open when setup runs.
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(buf) and vim.tbl_contains(M.options.filetypes, vim.bo[buf].filetype) then
      M.attach(buf)
    end
  end
end

return M
