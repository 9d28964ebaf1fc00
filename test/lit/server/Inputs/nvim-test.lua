-- For nvim.test: Neovim's own LSP client (0.7: vim.lsp.start_client and
-- vim.lsp.buf_attach_client) drives `cuda-bank-lint --lsp` on a kernel
-- file: the conflict's diagnostic, a hover, the padding applied as the user
-- applies a code action (vim.lsp.buf.code_action, the choice made by a
-- vim.ui.select stand-in), and the diagnostic gone after the edit.
-- Environment: CBL_LSP (the server command, space-separated), CBL_FILE (the
-- kernel file), CBL_OUT (what is seen, one line per fact, for FileCheck).

local out = assert(io.open(os.getenv('CBL_OUT'), 'w'))
local function say(fmt, ...)
  out:write(string.format(fmt, ...) .. '\n')
  out:flush()
end
local function fail(why)
  say('FAIL: %s', why)
  out:close()
  vim.cmd('cquit 1')
end

local file = os.getenv('CBL_FILE')
vim.cmd('edit ' .. vim.fn.fnameescape(file))
local bufnr = vim.api.nvim_get_current_buf()
local exit_code
local client_id = vim.lsp.start_client({
  name = 'cuda-bank-lint',
  cmd = vim.split(os.getenv('CBL_LSP'), ' ', { trimempty = true }),
  root_dir = vim.fn.fnamemodify(file, ':h'),
  init_options = { debounceMs = 100 },
  on_exit = function(code) exit_code = code end,
})
if not client_id then fail('the server did not start') end
if not vim.lsp.buf_attach_client(bufnr, client_id) then fail('not attached') end

-- The conflict of kernels.cu: line 8 (0-based 7), the check's name as code.
local function conflicts()
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.severity == vim.diagnostic.severity.WARN then table.insert(found, d) end
  end
  return found
end
if not vim.wait(60000, function() return #conflicts() > 0 end, 50) then
  fail('no warning within 60 s')
end
for _, d in ipairs(vim.diagnostic.get(bufnr)) do
  say('diagnostic line %d col %d severity %d code %s source %s: %s', d.lnum, d.col, d.severity,
      tostring(d.code), tostring(d.source), d.message)
end
local conflict = conflicts()[1]

-- Hover on the access.
vim.api.nvim_win_set_cursor(0, { conflict.lnum + 1, conflict.col + 2 })
local hovers = vim.lsp.buf_request_sync(bufnr, 'textDocument/hover',
                                        vim.lsp.util.make_position_params(), 30000)
for _, r in pairs(hovers or {}) do
  local value = r.result and r.result.contents.value or ''
  say('hover kind %s: %s', r.result and r.result.contents.kind or 'none',
      (value:match('```text\n([^\n]*)') or value))
end

-- The user's code action: the first quick fix offered is chosen.
vim.ui.select = function(items, opts, on_choice)
  for _, item in ipairs(items) do
    say('code action offered: %s (%s)', item[2].title, item[2].kind)
  end
  on_choice(items[1])
end
local before = vim.api.nvim_buf_get_lines(bufnr, 4, 5, false)[1]
vim.lsp.buf.code_action()
if not vim.wait(30000, function()
  return vim.api.nvim_buf_get_lines(bufnr, 4, 5, false)[1] ~= before
end, 50) then
  fail('the code action changed nothing')
end
say('line 5 now: %s', vim.api.nvim_buf_get_lines(bufnr, 4, 5, false)[1])

-- The diagnostics of the edited buffer: the conflict is gone.
if not vim.wait(60000, function() return #conflicts() == 0 end, 50) then
  fail('the warning is still there after the fix')
end
say('warnings after the fix: %d', #conflicts())
for _, d in ipairs(vim.diagnostic.get(bufnr)) do
  say('left: line %d severity %d code %s', d.lnum, d.severity, tostring(d.code))
end

vim.lsp.stop_client(client_id)
if not vim.wait(30000, function() return exit_code ~= nil end, 50) then
  fail('the server did not exit')
end
say('server exit code %d', exit_code)
out:close()
vim.cmd('qall!')
