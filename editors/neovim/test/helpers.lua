-- Shared by the headless tests: run `nvim --headless -u NONE -i NONE -n -c 'luafile <test>.lua'`.
-- A test file calls H.run(tests); it exits 0 when all pass and with `cquit 1` otherwise.
local H = {}

local source = debug.getinfo(1, 'S').source:sub(2)
H.test_dir = vim.fn.fnamemodify(source, ':p:h')
H.plugin_dir = vim.fn.fnamemodify(H.test_dir, ':h')

-- The plugin on the runtimepath, as a plugin manager would put it.
vim.opt.runtimepath:prepend(H.plugin_dir)

local function out(s)
  io.stdout:write(s .. '\n')
end

function H.fail(msg)
  error(msg, 2)
end

function H.eq(want, got, what)
  if not vim.deep_equal(want, got) then
    error(string.format('%s:\n  want %s\n  got  %s', what or 'values differ', vim.inspect(want), vim.inspect(got)), 2)
  end
end

function H.truthy(v, what)
  if not v then
    error(what or 'expected a true value', 2)
  end
  return v
end

function H.contains(haystack, needle, what)
  if type(haystack) ~= 'string' or not haystack:find(needle, 1, true) then
    error(string.format('%s: %s does not contain %s', what or 'contains', vim.inspect(haystack), vim.inspect(needle)), 2)
  end
end

--- Waits up to ms for cond() to return a true value, and returns it; fails with what otherwise.
function H.wait_for(ms, cond, what)
  local value
  local ok = vim.wait(ms, function()
    value = cond()
    return value and true or false
  end, 20)
  if not ok then
    error('timed out after ' .. ms .. ' ms waiting for ' .. what, 2)
  end
  return value
end

function H.read_file(path)
  local f = io.open(path, 'rb')
  if not f then
    return nil
  end
  local s = f:read('*a')
  f:close()
  return s
end

function H.lines(s)
  local t = {}
  for line in (s .. '\n'):gmatch('(.-)\r?\n') do
    table.insert(t, line)
  end
  if t[#t] == '' then
    table.remove(t)
  end
  return t
end

--- A fresh copy of a fixture folder (tests edit files) in a temporary folder.
function H.copy_fixture(name)
  local dst = vim.fn.tempname()
  vim.fn.mkdir(dst, 'p')
  local src = H.test_dir .. '/fixtures/' .. name
  local output = vim.fn.system({ 'cp', '-R', src .. '/.', dst })
  if vim.v.shell_error ~= 0 then
    error('copy fixture: ' .. output)
  end
  return vim.fn.resolve(dst)
end

function H.run(tests)
  local v = vim.version()
  out(string.format('# Neovim %d.%d.%d', v.major, v.minor, v.patch))
  local passed, failed = 0, 0
  for _, t in ipairs(tests) do
    local ok, err = xpcall(t[2], debug.traceback)
    if ok then
      passed = passed + 1
      out('ok   ' .. t[1])
    else
      failed = failed + 1
      out('FAIL ' .. t[1] .. '\n' .. tostring(err))
      if H.stop_on_failure then
        break
      end
    end
  end
  out(string.format('%d passed, %d failed', passed, failed))
  io.stdout:flush()
  if failed > 0 or passed == 0 then
    vim.cmd('cquit 1')
  else
    vim.cmd('qall!')
  end
end

return H
