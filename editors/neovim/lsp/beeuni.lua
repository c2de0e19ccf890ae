---@brief
---
--- https://github.com/beeuni/beeuni-lsp
---
--- `beeuni-lsp`, the language server for `beeuni.yaml` (the manifest of a
--- Beeuni agent project), the YAML files it imports and the TypeScript and
--- JavaScript tool modules it declares. Install it with `go`:
--- ```sh
--- go install github.com/beeuni/beeuni-lsp/cmd/beeuni-lsp@latest
--- ```
--- or from a release archive (https://github.com/beeuni/beeuni-lsp/releases).
---
--- The client attaches inside a folder tree holding `beeuni.yaml` (the
--- nearest such folder is the project root; a monorepo may hold several):
--- to `beeuni.yaml` and to the project's YAML, TypeScript and JavaScript
--- files, except in a hidden folder (`.github/`) or `node_modules` below
--- that root. To keep yaml-language-server off `beeuni.yaml`, give it a
--- filetype of its own:
--- ```lua
--- vim.filetype.add({ filename = { ['beeuni.yaml'] = 'yaml.beeuni' } })
--- ```
---
--- Commands (buffer-local): `:LspBeeuniEject[!] [name]` ejects a Beeuni tool
--- into `tools/<name>.ts` (with no name, pick one; `!` overwrites a copy),
--- `:LspBeeuniTools` shows the tools a session of the project gets. The
--- beeuni plugin (`editors/neovim/` of the repository above) replaces them
--- with `:BeeuniEject` and `:BeeuniTools` (name completion, a floating view).
---
--- Settings: `beeuni.inspectModules` (default `true`) inspects each tool
--- module (rule T11).

--- The project root of a buffer whose file the server has something to say
--- about: a beeuni.yaml anywhere, or a YAML, TypeScript or JavaScript file
--- in a folder tree holding beeuni.yaml, unless it lies in a hidden folder
--- (.github/workflows) or node_modules below that root.
local function served_root(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == '' then
    return nil
  end
  local root = vim.fs.root(bufnr, 'beeuni.yaml')
  if not root or vim.fs.basename(name) == 'beeuni.yaml' then
    return root
  end
  local rel = name:sub(#root + 2)
  for part in vim.fs.dirname(rel):gmatch('[^/]+') do
    if part == 'node_modules' or (part:sub(1, 1) == '.' and part ~= '.') then
      return nil
    end
  end
  return root
end

--- The commands without the plugin: workspace/executeCommand through
--- client:exec_cmd(); failures are reported, never raised.
---@param client vim.lsp.Client
---@param bufnr integer
local function lsp_commands(client, bufnr)
  local project = { uri = vim.uri_from_fname(client.root_dir .. '/beeuni.yaml') }
  local function report(what, err)
    vim.notify(('beeuni-lsp: %s: %s'):format(what, err.message or tostring(err)), vim.log.levels.ERROR)
  end
  local function eject(name, force)
    client:exec_cmd({
      title = 'Eject ' .. name,
      command = 'beeuni.eject',
      arguments = { { uri = project.uri, name = name, force = force } },
    }, { bufnr = bufnr }, function(err)
      if err then
        return report('eject ' .. name, err)
      end
      vim.notify(('beeuni-lsp: ejected %s into tools/%s.ts (:wall saves the manifest)'):format(name, name))
    end)
  end
  vim.api.nvim_buf_create_user_command(bufnr, 'LspBeeuniEject', function(opts)
    if opts.args ~= '' then
      return eject(opts.args, opts.bang)
    end
    client:exec_cmd({ title = 'Ejectable tools', command = 'beeuni.ejectableTools', arguments = { project } }, { bufnr = bufnr }, function(err, names)
      if err then
        return report('ejectable tools', err)
      end
      if type(names) ~= 'table' or #names == 0 then
        return vim.notify('beeuni-lsp: no Beeuni tool can be ejected in this project', vim.log.levels.WARN)
      end
      vim.ui.select(names, { prompt = 'Eject which Beeuni tool?' }, function(choice)
        if choice then
          eject(choice, opts.bang)
        end
      end)
    end)
  end, { nargs = '?', bang = true, desc = 'Eject a Beeuni tool into tools/<name>.ts (! overwrites)' })
  vim.api.nvim_buf_create_user_command(bufnr, 'LspBeeuniTools', function()
    client:exec_cmd({ title = 'Session tools', command = 'beeuni.sessionTools', arguments = { project } }, { bufnr = bufnr }, function(err, result)
      if err or type(result) ~= 'table' then
        return report('session tools', err or { message = 'no result' })
      end
      local lines = vim.split(vim.trim(result.table or ''), '\n')
      if result.agents and #result.agents > 0 then
        vim.list_extend(lines, { '', 'AGENT TOOLS' })
      end
      for _, agent in ipairs(result.agents or {}) do
        local names = vim.tbl_map(function(tool)
          return type(tool) == 'table' and tool.name or tostring(tool)
        end, agent.tools or {})
        lines[#lines + 1] = ('%s: %s'):format(agent.name, #names > 0 and table.concat(names, ', ') or '(none)')
      end
      vim.lsp.util.open_floating_preview(lines, '', { title = 'Beeuni session tools', border = 'single' })
    end)
  end, { desc = 'Show the tools a session of this project gets' })
end

--- The buffer-local commands: the plugin's when it is installed, else
--- those above.
---@param client vim.lsp.Client
---@param bufnr integer
local function on_attach(client, bufnr)
  local ok, beeuni = pcall(require, 'beeuni')
  if ok then
    beeuni.buffer_commands(client, bufnr)
  else
    lsp_commands(client, bufnr)
  end
end

---@type vim.lsp.Config
return {
  cmd = { 'beeuni-lsp', 'serve' },
  filetypes = { 'yaml.beeuni', 'yaml', 'typescript', 'javascript' },
  -- Attach only inside a folder tree holding beeuni.yaml: the nearest such
  -- folder is the project (a monorepo may hold several).
  root_dir = function(bufnr, on_dir)
    local root = served_root(bufnr)
    if root then
      on_dir(root)
    end
  end,
  on_attach = on_attach,
  init_options = { inspectModules = true },
  settings = { beeuni = { inspectModules = true } },
}
